import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NewPet } from '@petstore/types';
import type { Database } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConnection } from '../../src/storage/sqlite/connection.js';
import { migrateSqlite } from '../../src/storage/sqlite/migrations.js';
import { prepareWriteGroup, type WriteRequest } from '../../src/storage/sqlite/write-group.js';
import { failWrites } from '../support/failing-writes.js';

/**
 * A group of writes as the writer thread carries it out (`write-group.ts`), on a connection of
 * the test's own, so the test can shrink its cache and fail its disk writes.
 */
describe('SQLite write groups', () => {
  let dir: string;
  let file: string;
  let db: Database;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'petstore-write-group-'));
    file = path.join(dir, 'petstore.db');
    db = openConnection(file);
    migrateSqlite(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const bad = { name: 'Lost', categoryId: 1, status: 'lost' } as unknown as NewPet;
  const create = (id: number, pet: NewPet): WriteRequest => ({
    id,
    operation: { kind: 'createPet', pet },
  });
  const createOnce = (id: number, key: string, pet: NewPet): WriteRequest => ({
    id,
    operation: {
      kind: 'createIdempotent',
      pet,
      request: { apiKeyId: 1, key, fingerprint: 'f', now: 1_800_000_000_000, expiresAt: 2e12 },
    },
  });
  const outcomes = (answers: ReturnType<ReturnType<typeof prepareWriteGroup>>) =>
    answers.map((answer) => ('error' in answer ? answer.error.code : 'stored'));
  const names = () => db.prepare<[], string>('SELECT name FROM pets ORDER BY id').pluck().all();
  const keys = () =>
    db.prepare<[], string>('SELECT idempotency_key FROM idempotency_keys').pluck().all();

  it('fails a write alone, an idempotent create with its record: the others are committed', () => {
    const answers = prepareWriteGroup(db)([
      create(1, { name: 'A', categoryId: 1 }),
      createOnce(2, 'lost', bad),
      createOnce(3, 'b', { name: 'B', categoryId: 2 }),
      create(4, bad),
    ]);
    expect(outcomes(answers)).toEqual([
      'stored',
      'SQLITE_CONSTRAINT_CHECK',
      'stored',
      'SQLITE_CONSTRAINT_CHECK',
    ]);
    expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3, 4]);
    expect(db.inTransaction).toBe(false);
    expect(names()).toEqual(['A', 'B']);
    expect(keys()).toEqual(['b']);
  });

  it('fails every write of the group when SQLite undoes its whole transaction: none is stored', async () => {
    // A cache of a few pages, so the group's pages spill to the WAL before its commit; each
    // spill's write fails (EIO, as from a failing disk), and SQLite, for an I/O error, undoes
    // the whole transaction, not the statement.
    db.pragma('cache_size = 10');
    const group = prepareWriteGroup(db);
    const name = 'x'.repeat(8192);
    const requests = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? create(i + 1, { name, categoryId: 1 })
        : createOnce(i + 1, `key-${i}`, { name, categoryId: 1 }),
    );
    const failing = await failWrites(process.pid, [`${file}-wal`], 'EIO');
    let answers;
    try {
      answers = group(requests);
    } finally {
      await failing.stop();
    }
    expect(new Set(outcomes(answers))).toEqual(new Set(['SQLITE_IOERR_WRITE']));
    expect(answers.map((answer) => answer.id)).toEqual(requests.map((request) => request.id));
    expect(names()).toEqual([]);
    expect(keys()).toEqual([]);

    // The connection goes on: with the disk back, the next group commits.
    expect(outcomes(group([create(1, { name: 'A', categoryId: 1 })]))).toEqual(['stored']);
    expect(names()).toEqual(['A']);
  });
});
