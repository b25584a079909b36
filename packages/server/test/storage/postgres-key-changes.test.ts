import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openPostgresStorage } from '../../src/storage/index.js';
import { KEY_CHANGES_APPLICATION_NAME } from '../../src/storage/postgres/key-changes.js';
import { linesUpToMarker, logFrom, TROUBLE } from '../support/postgres-log.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';

// The connection that LISTENs for key changes from other processes (key-changes.ts).
describe('PostgreSQL key-change listener', () => {
  let database: TemporaryPostgresDatabase;

  beforeEach(async () => {
    database = await createTemporaryPostgresDatabase();
  });
  afterEach(async () => {
    await database.drop();
  });

  /** The sessions of this database that listen for key changes. */
  async function listeners(): Promise<number> {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const result = await admin.query(
        'select count(*)::int as count from pg_stat_activity where datname = $1 and application_name = $2',
        [database.name, KEY_CHANGES_APPLICATION_NAME],
      );
      return (result.rows[0] as { count: number }).count;
    } finally {
      await admin.end();
    }
  }

  it('opens its connection only when the key revision is first asked for', async () => {
    const storage = await openPostgresStorage({ connectionString: database.url });
    try {
      await storage.keys.list();
      expect(await listeners()).toBe(0);

      expect(storage.revisions().keys).toBeUndefined();
      await vi.waitFor(() => expect(storage.revisions().keys).toBeTypeOf('number'));
      expect(await listeners()).toBe(1);
    } finally {
      await storage.close();
    }
    expect(await listeners()).toBe(0);
  });

  it('lets a login in progress finish before closing, leaving nothing in PostgreSQL’s log', async () => {
    const log = logFrom();
    for (let round = 0; round < 5; round += 1) {
      const storage = await openPostgresStorage({ connectionString: database.url });
      storage.revisions(); // starts the login…
      await storage.close(); // …which is still under way here
    }

    const marker = `petstore-key-changes-${randomBytes(6).toString('hex')}`;
    const logged = await linesUpToMarker(log, database.url, marker);
    const ours = logged.filter(
      (line) => line.includes(database.name) || line.includes('startup packet'),
    );
    expect(ours.filter((line) => TROUBLE.test(line))).toEqual([]);
    expect(await listeners()).toBe(0);
  });
});
