import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NewPet } from '@petstore/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStorage, type Storage } from '../../src/storage/index.js';
import { threadWriter } from '../../src/storage/sqlite/writer.js';

/**
 * The SQLite writer thread: creates that arrive while a commit is in flight are committed
 * together, one fsync for the group, each answered only after its commit.
 */
describe('SQLite group commit', () => {
  let dir: string;
  let storage: Storage;
  let groups: number[];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'petstore-writer-'));
    groups = [];
    storage = openSqliteStorage(path.join(dir, 'petstore.db'), {
      onGroupCommitted: (size) => groups.push(size),
    });
  });
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits 200 concurrent creates in fewer commits, with unique ids in order', async () => {
    const created = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        storage.pets.create({ name: `Pet ${i}`, categoryId: i }),
      ),
    );
    expect(groups.reduce((sum, size) => sum + size, 0)).toBe(200);
    expect(groups.length).toBeLessThan(200);
    expect(Math.max(...groups)).toBeGreaterThan(1);
    // Ids in the order the creates were sent: one writer assigns them as they come.
    expect(created.map((pet) => pet.id)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(created.map((pet) => pet.name)).toEqual(
      Array.from({ length: 200 }, (_, i) => `Pet ${i}`),
    );
    expect(await storage.pets.list({ limit: 300 })).toEqual(created);
  });

  it('takes a turn of 600,000 writes in its one message to the thread', async () => {
    // More than a call can spread as arguments on a worker thread's stack (about 500 thousand).
    const count = 600_000;
    const sizes: number[] = [];
    const writer = threadWriter(path.join(dir, 'petstore.db'), (size) => sizes.push(size));
    try {
      const done = await Promise.all(
        Array.from({ length: count }, () => writer.write({ kind: 'probe', now: 1 })),
      );
      expect(done).toHaveLength(count);
      expect(sizes).toEqual([count]);
    } finally {
      await writer.close();
    }
  });

  it('fails only the write that fails: the others of its group are committed', async () => {
    const bad = { name: 'Lost', categoryId: 1, status: 'lost' } as unknown as NewPet;
    const outcomes = await Promise.allSettled([
      storage.pets.create({ name: 'A', categoryId: 1 }),
      storage.pets.create(bad),
      storage.pets.create({ name: 'B', categoryId: 2 }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({
      code: 'SQLITE_CONSTRAINT_CHECK',
    });
    expect((await storage.pets.list({ limit: 10 })).map((pet) => pet.name)).toEqual(['A', 'B']);
  });

  it('serves reads from the server’s own connection while writes are committed elsewhere', async () => {
    const writes = Array.from({ length: 50 }, (_, i) =>
      storage.pets.create({ name: `W${i}`, categoryId: i }),
    );
    const reads = await Promise.all(
      Array.from({ length: 20 }, () => storage.pets.list({ limit: 100 })),
    );
    await Promise.all(writes);
    for (const page of reads) expect(page.length).toBeLessThanOrEqual(50);
    expect(await storage.pets.list({ limit: 100 })).toHaveLength(50);
  });
});

/** `:memory:` writes on its reading connection, which SQLite's data_version does not count. */
describe('SQLite in memory (the mock’s store)', () => {
  it('moves its pet revision with its own writes', async () => {
    const storage = openSqliteStorage(':memory:');
    try {
      const start = storage.revisions().pets;
      expect(storage.revisions().pets).toBe(start);
      await storage.pets.create({ name: 'Rex', categoryId: 1 });
      const afterCreate = storage.revisions().pets;
      expect(afterCreate).not.toBe(start);
      await storage.pets.createIdempotent(
        { name: 'Tom', categoryId: 1 },
        { apiKeyId: 1, key: 'k', fingerprint: 'f', now: 0, expiresAt: Date.now() + 60_000 },
      );
      expect(storage.revisions().pets).not.toBe(afterCreate);
    } finally {
      await storage.close();
    }
  });
});
