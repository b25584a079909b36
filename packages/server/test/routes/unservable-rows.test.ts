import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Pet } from '@petstore/types';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { expectApiHeaders, expectError } from '../support/contract.js';
import { createPet, get, walkPages } from '../support/requests.js';

/**
 * Defence in depth: rows that did not come through the API (an older version's data, a
 * hand-edited database) and break the contract are left out of pages instead of failing them
 * for everyone. Planted straight into the server's SQLite file by a second connection.
 */
describe('stored rows that cannot be served', () => {
  let dir: string;
  let server: TestServer;
  let key: string;
  const good: Pet[] = [];
  const planted: number[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'petstore-unservable-'));
    const databaseFile = path.join(dir, 'petstore.db');
    server = await startTestServer({ databaseFile, logger: createLogger('silent') });
    key = await server.createKey('pro');
    const db = new BetterSqlite3(databaseFile);
    const plant = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
    for (let i = 0; i < 6; i++) {
      good.push(await createPet(server, key, { name: `Good ${i}`, categoryId: 1, status: 'sold' }));
      // What the old server stored for 100 lone surrogates: 300 × U+FFFD, over 255 characters.
      const bad = [['\ufffd'.repeat(300)], ['bell\u0007'], ['']][i % 3] as [string];
      planted.push(Number(plant.run(bad[0], 1, 'sold').lastInsertRowid));
    }
    db.close();
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves them out of a page, which still answers 200 with the other pets', async () => {
    const response = await get(server, key, '/v1/pets?limit=100');
    expectApiHeaders(response);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(good);
  });

  it('keeps pages full and the walk complete across them (status filter too)', async () => {
    for (const first of ['/v1/pets?limit=2', '/v1/pets?limit=1&status=sold']) {
      const { pets, paths } = await walkPages(server, key, first);
      expect(pets).toEqual(good);
      expect(paths.length).toBe(first.includes('limit=2') ? 3 : 6);
    }
  });

  it('answers getPet of such a row with 500, and the others with 200', async () => {
    await expectError(await get(server, key, `/v1/pets/${planted[0]}`), 500, 'internal_error');
    expect((await get(server, key, `/v1/pets/${good[0]?.id}`)).status).toBe(200);
  });
});
