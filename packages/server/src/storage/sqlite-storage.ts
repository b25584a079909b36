import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { NewPet, Pet, PetStatus } from '@petstore/types';
import BetterSqlite3 from 'better-sqlite3';
import { type Clock, systemClock } from '../clock.js';
import { migrateSqlite } from './sqlite-migrations.js';
import type {
  ApiKeyRecord,
  ApiKeyRepository,
  ListPetsQuery,
  NewApiKey,
  PetRepository,
  Plan,
  Storage,
} from './store.js';

export interface SqliteStorageOptions {
  /** Where `createdAt`/`revokedAt` come from. */
  clock?: Clock;
}

interface PetRow {
  id: number;
  name: string;
  category_id: number;
  status: PetStatus | null;
}

interface ApiKeyRow {
  id: number;
  name: string | null;
  plan: Plan;
  per_minute: number;
  per_day: number;
  display_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

const toPet = (row: PetRow): Pet =>
  row.status === null
    ? { id: row.id, name: row.name, categoryId: row.category_id }
    : { id: row.id, name: row.name, categoryId: row.category_id, status: row.status };

const toKey = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  plan: row.plan,
  perMinute: row.per_minute,
  perDay: row.per_day,
  displayPrefix: row.display_prefix,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

const KEY_COLUMNS = 'id, name, plan, per_minute, per_day, display_prefix, created_at, revoked_at';

/**
 * Opens (creating if needed) the SQLite database at `file` (or `:memory:`) and migrates it.
 *
 * Durability: WAL with `synchronous = FULL` fsyncs the log on every commit, so a create that
 * got its 201 survives `kill -9` of the server and a power loss alike. better-sqlite3 is
 * synchronous, so each statement runs to completion before the next request's: no write races.
 *
 * @example
 * ```ts
 * const storage = openSqliteStorage('./data/petstore.db');
 * const pet = await storage.pets.create({ name: 'Rex', categoryId: 1 });
 * ```
 */
export function openSqliteStorage(file: string, options: SqliteStorageOptions = {}): Storage {
  const clock = options.clock ?? systemClock;
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // The keys CLI may write while the server runs: wait for its lock instead of failing.
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrateSqlite(db);

  // Prepared once: every request reuses these compiled statements.
  const insertPet = db.prepare<[string, number, PetStatus | null], PetRow>(
    'INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING id, name, category_id, status',
  );
  const selectPet = db.prepare<[number], PetRow>(
    'SELECT id, name, category_id, status FROM pets WHERE id = ?',
  );
  const listAll = db.prepare<[number, number], PetRow>(
    'SELECT id, name, category_id, status FROM pets WHERE id > ? ORDER BY id LIMIT ?',
  );
  const listByStatus = db.prepare<[PetStatus, number, number], PetRow>(
    'SELECT id, name, category_id, status FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?',
  );
  const insertKey = db.prepare<
    [string, string, string | null, Plan, number, number, string],
    ApiKeyRow
  >(
    `INSERT INTO api_keys (hash, display_prefix, name, plan, per_minute, per_day, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${KEY_COLUMNS}`,
  );
  const selectActiveKey = db.prepare<[string], ApiKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = ? AND revoked_at IS NULL`,
  );
  const selectKeys = db.prepare<[], ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id`);
  const revokeKey = db.prepare<[string, number]>(
    'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const countActiveKeys = db.prepare<[], { n: number }>(
    'SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL',
  );
  const selectOne = db.prepare('SELECT 1');

  const pets: PetRepository = {
    async create(pet: NewPet) {
      return toPet(insertPet.get(pet.name, pet.categoryId, pet.status ?? null) as PetRow);
    },
    async get(id: number) {
      const row = selectPet.get(id);
      return row && toPet(row);
    },
    async list({ limit, status, afterId }: ListPetsQuery) {
      const after = afterId ?? 0;
      const rows =
        status === undefined ? listAll.all(after, limit) : listByStatus.all(status, after, limit);
      return rows.map(toPet);
    },
  };

  const keys: ApiKeyRepository = {
    async create(key: NewApiKey) {
      const createdAt = new Date(clock.now()).toISOString();
      const row = insertKey.get(
        key.hash,
        key.displayPrefix,
        key.name,
        key.plan,
        key.perMinute,
        key.perDay,
        createdAt,
      ) as ApiKeyRow;
      return toKey(row);
    },
    async findActiveByHash(hash: string) {
      const row = selectActiveKey.get(hash);
      return row && toKey(row);
    },
    async list() {
      return selectKeys.all().map(toKey);
    },
    async revoke(id: number) {
      return revokeKey.run(new Date(clock.now()).toISOString(), id).changes === 1;
    },
    async countActive() {
      return (countActiveKeys.get() as { n: number }).n;
    },
  };

  return {
    pets,
    keys,
    async ping() {
      selectOne.get();
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
