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
});
