import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStorage } from '../../src/storage/index.js';
import { migratePostgres, postgresMigrations } from '../../src/storage/postgres/migrations.js';
import { advisoryLockId } from '../../src/storage/postgres/postgres-storage.js';
import { openPostgresStorage } from '../../src/storage/index.js';
import type { Storage } from '../../src/storage/index.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';

// What only PostgreSQL can show; the behaviour both backends share is in storage-contract.test.ts.
describe('PostgreSQL storage', () => {
  let database: TemporaryPostgresDatabase;
  let storage: Storage;
  let admin: pg.Client;

  beforeEach(async () => {
    database = await createTemporaryPostgresDatabase();
    storage = await openPostgresStorage({ connectionString: database.url });
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });

  afterEach(async () => {
    await admin.end();
    await storage.close();
    await database.drop();
  });

  it('refuses to hand out an id beyond 2^53−1 rounded into another pet’s id', async () => {
    await admin.query('alter table pets alter column id restart with 9007199254740993');

    await expect(storage.pets.create({ name: 'Too far', categoryId: 1 })).rejects.toThrow(
      'pets.id 9007199254740993 is beyond the safe integer range',
    );
    // Reading stays possible (one odd row must not fail a page); the id comes back unsafe, which
    // the routes refuse to serve (test/routes/list-pets.test.ts).
    const [pet] = await storage.pets.list({ limit: 10 });
    expect(Number.isSafeInteger(pet?.id)).toBe(false);
  });

  it('answers in_flight and creates nothing while another session holds the key', async () => {
    const request = {
      apiKeyId: 1,
      key: 'b3f1c2d4-held-elsewhere',
      fingerprint: 'body-a',
      now: Date.now(),
      expiresAt: Date.now() + 60_000,
    };
    const rex = { name: 'Rex', categoryId: 1 };
    // Another instance processing the same key: its transaction holds the key's lock.
    await admin.query('begin');
    await admin.query('select pg_advisory_xact_lock($1)', [advisoryLockId(request)]);
    expect(await storage.pets.createIdempotent(rex, request)).toEqual({ kind: 'in_flight' });
    expect(await storage.pets.list({ limit: 10 })).toEqual([]);
    await admin.query('rollback');
    expect((await storage.pets.createIdempotent(rex, request)).kind).toBe('created');
    expect(await storage.pets.list({ limit: 10 })).toHaveLength(1);
  });

  it('serves the status filter in id order from an index, without sorting', async () => {
    await admin.query('set enable_seqscan = off');
    const plan = await admin.query<{ 'QUERY PLAN': unknown }>(
      `explain (format json)
       select id, name, category_id, status from pets
       where status = 'sold' and id > 0 order by id limit 20`,
    );
    const text = JSON.stringify(plan.rows[0]?.['QUERY PLAN']);

    expect(text).toContain('"Index Name":"pets_status_id"');
    expect(text).not.toContain('"Node Type":"Sort"');
  });

  it('records each migration once however often the store is opened', async () => {
    const again = await openPostgresStorage({ connectionString: database.url });
    await again.close();

    const applied = await admin.query('select version from schema_migrations order by version');
    expect(applied.rows).toEqual(postgresMigrations.map(({ version }) => ({ version })));
  });

  it('reports a dropped idle connection and serves the next query on a new one', async () => {
    let reportDrop: (error: Error) => void = () => {};
    const dropped = new Promise<Error>((resolve) => {
      reportDrop = resolve;
    });
    // Through openStorage, as main.ts opens it (it logs what this callback receives).
    const store = await openStorage(database.url, {
      onConnectionError: (error) => reportDrop(error),
    });
    try {
      await store.ping(); // leaves one idle connection in the pool

      // What a database restart or failover does to every open connection.
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()`,
      );

      expect((await dropped).message).toMatch(/terminat/i);
      await expect(store.ping()).resolves.toBeUndefined();
      expect(await store.pets.create({ name: 'After restart', categoryId: 1 })).toMatchObject({
        name: 'After restart',
      });
    } finally {
      await store.close();
    }
  });

  it('leaves nothing behind when a migration fails: every step or none', async () => {
    const fresh = await createTemporaryPostgresDatabase();
    const pool = new pg.Pool({ connectionString: fresh.url });
    try {
      await expect(
        migratePostgres(pool, [
          { version: 1, description: 'fine', sql: 'create table first_step (id int)' },
          { version: 2, description: 'broken', sql: 'create table broken (' },
        ]),
      ).rejects.toThrow(/syntax error/);

      const tables = await pool.query(
        `select table_name from information_schema.tables where table_schema = 'public'`,
      );
      expect(tables.rows).toEqual([]);
    } finally {
      await pool.end();
      await fresh.drop();
    }
  });

  it('is what openStorage returns for postgres:// and postgresql:// URLs', async () => {
    const alias = new URL(database.url);
    alias.protocol = 'postgresql:';
    const store = await openStorage(alias.toString());
    try {
      const pet = await store.pets.create({ name: 'Via alias', categoryId: 2 });
      expect(await storage.pets.get(pet.id)).toEqual(pet);
    } finally {
      await store.close();
    }
  });

  it('rejects opening when the database cannot be reached', async () => {
    const unreachable = new URL(database.url);
    unreachable.port = '1';

    await expect(openPostgresStorage({ connectionString: unreachable.toString() })).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });
});
