import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NewPet, Pet, PetStatus } from '@petstore/types';
import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/routes/cursor.js';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { createPet, get, nextLink } from '../support/requests.js';

/**
 * Pages and pets are answered from memory while no pet changed (representation-cache.ts). Here
 * reads and creates interleave at random, the creates coming through the API, through another
 * store opened on the same file (another server process, as the keys CLI opens it), and
 * through a bare SQLite connection (a hand edit): every read must answer what the database
 * holds at that moment, as a read straight from the file says.
 */
describe('answers served from memory, against writes from anywhere', () => {
  let dir: string;
  let databaseFile: string;
  let server: TestServer;
  let key: string;
  let otherStore: Storage;
  let direct: BetterSqlite3.Database;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'petstore-cached-'));
    databaseFile = path.join(dir, 'petstore.db');
    server = await startTestServer({ databaseFile });
    key = await server.createKey('enterprise', { perMinute: 1_000_000, perDay: 1_000_000 });
    otherStore = await openStorage(`file:${databaseFile}`);
    direct = new BetterSqlite3(databaseFile);
  });
  afterAll(async () => {
    direct.close();
    await otherStore.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The truth: the pets as the file holds them now, by id. */
  function stored(status: PetStatus | undefined, afterId: number, limit: number): Pet[] {
    const rows = direct
      .prepare<
        unknown[],
        { id: number; name: string; category_id: number; status: PetStatus | null }
      >(
        `SELECT id, name, category_id, status FROM pets
         WHERE id > ? ${status === undefined ? '' : 'AND status = ?'} ORDER BY id LIMIT ?`,
      )
      .all(...(status === undefined ? [afterId, limit] : [afterId, status, limit]));
    return rows.map(({ id, name, category_id, status: s }) => ({
      id,
      name,
      categoryId: category_id,
      ...(s === null ? {} : { status: s }),
    }));
  }

  const status = fc.constantFrom<PetStatus | undefined>('available', 'pending', 'sold', undefined);
  const draft = fc.record({
    name: fc.constantFrom('Rex', 'Tom', 'Fido'),
    categoryId: fc.integer({ min: 1, max: 9 }),
    status,
  });
  type Step =
    | {
        kind: 'create';
        via: 'api' | 'other store' | 'bare connection';
        pet: { name: string; categoryId: number; status: PetStatus | undefined };
      }
    | { kind: 'list'; limit: number; status: PetStatus | undefined; after: number }
    | { kind: 'get'; nth: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constant('create' as const),
      via: fc.constantFrom('api' as const, 'other store' as const, 'bare connection' as const),
      pet: draft,
    }),
    // Few distinct pages and pets, so that one is often asked again after a create.
    fc.record({
      kind: fc.constant('list' as const),
      limit: fc.constantFrom(1, 3),
      status: fc.constantFrom<PetStatus | undefined>('available', undefined),
      after: fc.nat({ max: 2 }),
    }),
    fc.record({ kind: fc.constant('get' as const), nth: fc.nat({ max: 2 }) }),
  );

  async function create(via: Step & { kind: 'create' }): Promise<void> {
    const { name, categoryId, status: s } = via.pet;
    const pet: NewPet = { name, categoryId, ...(s === undefined ? {} : { status: s }) };
    if (via.via === 'api') await createPet(server, key, pet);
    else if (via.via === 'other store') await otherStore.pets.create(pet);
    else {
      direct
        .prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)')
        .run(name, categoryId, s ?? null);
    }
  }

  /** The newest pet's id (0 when there is none). */
  const newestId = (): number =>
    (direct.prepare('SELECT max(id) AS id FROM pets').get() as { id: number | null }).id ?? 0;

  it('answers every page and pet as the database holds it at that moment', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        // Reads ask for fixed places just past the pets of the previous runs, where this run's
        // creates land: the same page is asked again after a create that changes it.
        const anchor = newestId();
        for (const s of steps) {
          if (s.kind === 'create') {
            await create(s);
          } else if (s.kind === 'list') {
            const after = anchor + s.after;
            const query = new URLSearchParams({ limit: String(s.limit) });
            if (s.status !== undefined) query.set('status', s.status);
            if (after > 0) query.set('cursor', encodeCursor(after));
            const response = await get(server, key, `/v1/pets?${query}`);
            expect(response.status).toBe(200);
            const truth = stored(s.status, after, s.limit + 1);
            expect(await response.json()).toEqual(truth.slice(0, s.limit));
            expect(nextLink(response) !== undefined).toBe(truth.length > s.limit);
          } else {
            const id = anchor + s.nth + 1;
            const response = await get(server, key, `/v1/pets/${id}`);
            const truth = stored(undefined, id - 1, 1).filter((pet) => pet.id === id);
            if (truth[0] === undefined) expect(response.status).toBe(404);
            else expect(await response.json()).toEqual(truth[0]);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('changes a page’s ETag once a pet joins it, so a revalidation gets the new page', async () => {
    // The page after the newest pet: empty until a pet is created.
    const cursor = encodeCursor(newestId());
    const page = `${server.baseUrl}/pets?limit=100&status=pending&cursor=${cursor}`;
    const first = await fetch(page, { headers: { Authorization: `Bearer ${key}` } });
    expect(await first.json()).toEqual([]);
    const etag = first.headers.get('ETag') as string;
    const revalidate = { headers: { Authorization: `Bearer ${key}`, 'If-None-Match': etag } };
    expect((await fetch(page, revalidate)).status).toBe(304);
    const added = await otherStore.pets.create({ name: 'Late', categoryId: 1, status: 'pending' });
    const after = await fetch(page, revalidate);
    expect(after.status).toBe(200);
    expect(after.headers.get('ETag')).not.toBe(etag);
    expect(await after.json()).toEqual([added]);
  });
});
