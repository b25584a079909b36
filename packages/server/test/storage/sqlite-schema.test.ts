import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateSqlite, sqliteMigrations } from '../../src/storage/sqlite/migrations.js';
import { openSqliteStorage } from '../../src/storage/index.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'petstore-sqlite-'));
  file = path.join(dir, 'petstore.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the SQLite schema', () => {
  it('migrates once: reopening keeps the data and the schema version', async () => {
    const first = openSqliteStorage(file);
    const pet = await first.pets.create({ name: 'Rex', categoryId: 1 });
    await first.close();
    const second = openSqliteStorage(file);
    expect(await second.pets.get(pet.id)).toEqual(pet);
    await second.close();
    const db = new BetterSqlite3(file);
    migrateSqlite(db);
    expect(db.pragma('user_version', { simple: true })).toBe(sqliteMigrations.length);
    db.close();
  });

  it('puts the database in WAL mode (it stays so for every later connection)', () => {
    const storage = openSqliteStorage(file);
    const db = new BetterSqlite3(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    return storage.close();
  });

  it('serves the status filter in id order from the (status, id) index, without sorting', () => {
    const storage = openSqliteStorage(file);
    const db = new BetterSqlite3(file);
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT id, name, category_id, status FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?',
      )
      .all('sold', 0, 21) as { detail: string }[];
    const details = plan.map((row) => row.detail).join('\n');
    expect(details).toContain('SEARCH pets USING INDEX pets_status_id (status=? AND id>?)');
    expect(details).not.toContain('TEMP B-TREE');
    db.close();
    return storage.close();
  });

  it('keeps idempotency records through the migration that appends them in order', async () => {
    // A store as it was before that migration (the sixth), holding one live record.
    const before = new BetterSqlite3(file);
    const applied = 5;
    sqliteMigrations.slice(0, applied).forEach((sql) => before.exec(sql));
    before.pragma(`user_version = ${applied}`);
    before.prepare("INSERT INTO pets (name, category_id, status) VALUES ('Rex', 2, 'sold')").run();
    const recorded = { id: 1, name: 'Rex', categoryId: 2, status: 'sold' };
    before
      .prepare('INSERT INTO idempotency_keys VALUES (7, ?, ?, 1, 201, ?, ?, ?)')
      .run('key-1', 'fingerprint-1', JSON.stringify(recorded), 1_000, 9_000_000_000_000);
    before.close();

    const storage = openSqliteStorage(file);
    const request = { apiKeyId: 7, key: 'key-1', now: 2_000, expiresAt: 3_000 };
    const draft = { name: 'Other', categoryId: 1 };
    expect(
      await storage.pets.createIdempotent(draft, { ...request, fingerprint: 'fingerprint-1' }),
    ).toEqual({ kind: 'replayed', pet: recorded });
    expect(
      await storage.pets.createIdempotent(draft, { ...request, fingerprint: 'another' }),
    ).toEqual({ kind: 'reused' });
    await storage.close();

    const db = new BetterSqlite3(file);
    const { sql } = db
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'idempotency_keys'")
      .get() as { sql: string };
    expect(sql).not.toMatch(/WITHOUT ROWID/i);
    // Still one record per (API key, key): the index is unique.
    expect(() =>
      db
        .prepare('INSERT INTO idempotency_keys VALUES (7, ?, ?, 1, 201, ?, ?, ?)')
        .run('key-1', 'fingerprint-2', '{}', 3_000, 9_000_000_000_000),
    ).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_UNIQUE' }));
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT fingerprint FROM idempotency_keys WHERE api_key_id = ? AND idempotency_key = ?',
      )
      .all(7, 'key-1') as { detail: string }[];
    expect(plan.map((row) => row.detail).join('\n')).toContain(
      'SEARCH idempotency_keys USING INDEX idempotency_keys_key (api_key_id=? AND idempotency_key=?)',
    );
    db.close();
  });
});
