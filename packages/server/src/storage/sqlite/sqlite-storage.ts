import { mkdirSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import type { NewPet, Pet, PetStatus } from '@petstore/types';
import type { Database } from 'better-sqlite3';
import { type Clock, systemClock } from '../../clock.js';
import type { ApiKeyRecord, NewApiKey, Plan } from '../../domain.js';
import { translateStoreErrors } from '../errors.js';
import * as rows from '../rows.js';
import { refuseRotation, retirement } from '../key-rotation.js';
import type * as store from '../store.js';
import { openConnection } from './connection.js';
import { migrateSqlite } from './migrations.js';
import { inlineWriter, type SqliteWriter, threadWriter } from './writer.js';

export interface SqliteStorageOptions {
  /** Where `createdAt`/`revokedAt` come from. */
  clock?: Clock | undefined;
  /** Told how many writes each commit of the writer thread carried (group commit). */
  onGroupCommitted?: ((size: number) => void) | undefined;
}

/**
 * SQLite result codes that mean "the database cannot be used right now", not "this request is
 * wrong": a full or read-only disk, an I/O error, a file that cannot be opened, a lock held too
 * long (https://www.sqlite.org/rescode.html). Extended codes keep the primary code as prefix.
 */
const UNAVAILABLE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|PROTOCOL|NOLFS)/;

function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNAVAILABLE.test(code);
}

/** Runs a better-sqlite3 call or a write, translating "unavailable" errors. */
const run = <T>(operation: () => T | Promise<T>): Promise<T> =>
  translateStoreErrors(operation, isUnavailable);

/**
 * Opens (creating if needed) the SQLite database at `file` (or `:memory:`) and migrates it.
 *
 * Reads run on this connection, in the server's thread (better-sqlite3 is synchronous, and a
 * prepared read takes microseconds). Pet writes go to a writer thread with a connection of its
 * own, which commits them in groups (`writer-thread.ts`); `:memory:` writes inline instead.
 *
 * Durability: WAL with `synchronous = FULL` fsyncs the log on every commit, and a create is
 * answered only once its commit is durable, so a create that got its 201 survives `kill -9` of
 * the server and a power loss alike. One writer: ids are assigned in order, without races.
 *
 * @example
 * ```ts
 * const storage = openSqliteStorage('./data/petstore.db');
 * const pet = await storage.pets.create({ name: 'Rex', categoryId: 1 });
 * ```
 */
export function openSqliteStorage(file: string, options: SqliteStorageOptions = {}): store.Storage {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = openConnection(file);
  migrateSqlite(db);
  return sqliteStorage(db, file, options);
}

/**
 * Throws when the file at `file`'s path is no longer the database this process opened: deleted,
 * renamed, or replaced by another file moved to its path. SQLite goes on reading and writing the
 * open file regardless, so writes acknowledged from then on would be lost at the next restart;
 * readiness asks this first, so a load balancer stops sending.
 */
function unmovedFile(file: string): () => void {
  if (file === ':memory:') return () => {};
  const same = (a: Stats | undefined, b: Stats) => a?.dev === b.dev && a.ino === b.ino;
  const opened = statSync(file);
  return () => {
    if (!same(statSync(file, { throwIfNoEntry: false }), opened))
      throw Object.assign(
        new Error(`the database file ${file} was deleted, renamed or replaced since it was opened`),
        { code: 'SQLITE_READONLY_DBMOVED' }, // SQLite's own name for this state
      );
  };
}

/**
 * The store over one open database. Its parts are plain objects of functions (so decorators can
 * spread them), closed over statements prepared once: every request reuses them.
 */
function sqliteStorage(db: Database, file: string, options: SqliteStorageOptions): store.Storage {
  const ping = db.prepare('SELECT 1');
  const checkUnmoved = unmovedFile(file);
  const writer = lazyWriter(() =>
    file === ':memory:' ? inlineWriter(db) : threadWriter(file, options.onGroupCommitted),
  );
  const revisions = sqliteRevisions(db);
  return {
    pets: sqlitePets(db, writer, revisions),
    keys: sqliteKeys(db, options.clock ?? systemClock, revisions),
    revisions: revisions.read,
    // Readiness is the file still at its path, then reads and writes: a read on this connection,
    // and a write probe committed by the writer (a full or read-only disk still answers reads,
    // but takes no create).
    ping: () =>
      run(async () => {
        checkUnmoved();
        ping.get();
        await writer.write({ kind: 'probe', now: Date.now() });
      }),
    async close() {
      await writer.close();
      if (db.open) db.close();
    },
  };
}

/**
 * The writer, started on the first pet write: a process that only reads, or only manages keys
 * (the keys CLI), never starts a writer thread.
 */
function lazyWriter(start: () => SqliteWriter): SqliteWriter {
  let writer: SqliteWriter | undefined;
  return {
    write: (operation) => (writer ??= start()).write(operation),
    close: async () => writer?.close(),
  };
}

/** Both revisions, nothing known: the store could not be read. */
const UNKNOWN: store.Revisions = Object.freeze({ keys: undefined, pets: undefined });

/**
 * The store's revisions, from SQLite's own change counter: `PRAGMA data_version` moves whenever
 * another connection commits to the file (the writer thread, another process), and is read in a
 * read transaction of its own, so it is exact at the moment of the call. One read serves both:
 * while the counter stays put no key changed either, so the keys' revision (a counter that
 * triggers move with every key write) is read again only after the counter moved, and after
 * reading the counter, never before. Writes on this connection do not move it, so they are told
 * here: the pets' (`:memory:`'s inline writer) and the keys' (the keys CLI, tests). https://www.sqlite.org/pragma.html#pragma_data_version
 */
function sqliteRevisions(db: Database) {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const keyRevision = db
    .prepare<[], number>('SELECT n FROM api_keys_revision WHERE id = 1')
    .pluck();
  let seenVersion: number | undefined;
  let pets = 0;
  /** The keys' revision, read after `seenVersion`; undefined: to be read again. */
  let keys: number | undefined;
  return {
    read(): store.Revisions {
      let version: number | undefined;
      try {
        version = dataVersion.get();
      } catch {
        return UNKNOWN; // closed or unreadable: the read that follows reports it
      }
      if (version !== seenVersion) {
        seenVersion = version;
        pets += 1;
        keys = undefined;
      }
      if (keys === undefined) {
        try {
          keys = keyRevision.get();
        } catch {
          return { keys: undefined, pets };
        }
      }
      return { keys, pets };
    },
    petsWritten() {
      pets += 1;
    },
    keysWritten() {
      keys = undefined;
    },
  };
}

type SqliteRevisions = ReturnType<typeof sqliteRevisions>;

function sqlitePets(
  db: Database,
  writer: SqliteWriter,
  revisions: SqliteRevisions,
): store.PetRepository {
  const written = <T>(write: Promise<T>): Promise<T> => write.finally(revisions.petsWritten);
  const select = db.prepare<[number], rows.PetRow>(
    `SELECT ${rows.PET_COLUMNS} FROM pets WHERE id = ?`,
  );
  // Raw (arrays): see rows.petFromTuple. One prepared statement per shape of the query.
  const listAll = db
    .prepare<[number, number], rows.PetTuple>(
      `SELECT ${rows.PET_COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`,
    )
    .raw();
  const listByStatus = db
    .prepare<[PetStatus, number, number], rows.PetTuple>(
      `SELECT ${rows.PET_COLUMNS} FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?`,
    )
    .raw();
  return {
    create: (pet: NewPet): Promise<Pet> =>
      run(() => written(writer.write({ kind: 'createPet', pet }))),
    createIdempotent: (
      pet: NewPet,
      request: store.IdempotentCreate,
    ): Promise<store.IdempotentOutcome> =>
      run(() => written(writer.write({ kind: 'createIdempotent', pet, request }))),
    purgeExpiredIdempotencyKeys: (now: number): Promise<number> =>
      run(() => writer.write({ kind: 'purgeExpiredIdempotencyKeys', now })),
    get: (id: number): Promise<Pet | undefined> =>
      run(() => {
        const row = select.get(id);
        return row && rows.petFromRow(row);
      }),
    // Ids start at 1, so "after 0" is "from the start".
    list: ({ limit, status, afterId = 0 }: store.ListPetsQuery): Promise<Pet[]> =>
      run(() =>
        (status === undefined
          ? listAll.all(afterId, limit)
          : listByStatus.all(status, afterId, limit)
        ).map(rows.petFromTuple),
      ),
  };
}

function sqliteKeys(
  db: Database,
  clock: Clock,
  revisions: SqliteRevisions,
): store.ApiKeyRepository {
  const insert = db.prepare<
    [string, string, string | null, Plan, number, number, string],
    rows.ApiKeyRow
  >(
    `INSERT INTO api_keys (${rows.NEW_KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${rows.KEY_COLUMNS}`,
  );
  // Active: not revoked, and not expired at @now. Timestamps are ISO 8601 text of one fixed
  // format (toISOString), so comparing the texts compares the instants.
  const ACTIVE = 'revoked_at IS NULL AND (expires_at IS NULL OR expires_at > @now)';
  const selectActive = db.prepare<{ hash: string; now: string }, rows.ApiKeyRow>(
    `SELECT ${rows.KEY_COLUMNS} FROM api_keys WHERE hash = @hash AND ${ACTIVE}`,
  );
  const selectAll = db.prepare<[], rows.ApiKeyRow>(
    `SELECT ${rows.KEY_COLUMNS} FROM api_keys ORDER BY id`,
  );
  const selectById = db.prepare<[number], rows.ApiKeyRow>(
    `SELECT ${rows.KEY_COLUMNS} FROM api_keys WHERE id = ?`,
  );
  const revoke = db.prepare<{ id: number; now: string }>(
    `UPDATE api_keys SET revoked_at = @now WHERE id = @id AND ${ACTIVE}`,
  );
  const insertReplacement = db.prepare<
    { hash: string; displayPrefix: string; now: string; id: number },
    rows.ApiKeyRow
  >(
    `INSERT INTO api_keys (${rows.NEW_KEY_COLUMNS}, replaces_id)
     SELECT @hash, @displayPrefix, name, plan, per_minute, per_day, @now, id
     FROM api_keys WHERE id = @id
     RETURNING ${rows.KEY_COLUMNS}`,
  );
  const retire = db.prepare<[string | null, string | null, number], rows.ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = ?, expires_at = ? WHERE id = ? RETURNING ${rows.KEY_COLUMNS}`,
  );
  const countActive = db.prepare<{ now: string }, { n: number }>(
    `SELECT count(*) AS n FROM api_keys WHERE ${ACTIVE}`,
  );
  /** The clock's time as ISO 8601 text. */
  const now = () => new Date(clock.now()).toISOString();
  /** A key write on this connection, which SQLite's change counter does not see. */
  const keyWrite = <T>(write: () => T): T => {
    try {
      return write();
    } finally {
      revisions.keysWritten();
    }
  };
  // In a transaction of its own, not autocommit: with `INSERT … RETURNING` read by `.get()`,
  // the autocommit's COMMIT runs when better-sqlite3 resets the statement, and a COMMIT that
  // fails there (a full or read-only disk) would go unreported — a key printed, never stored.
  const create = db.transaction((key: NewApiKey): ApiKeyRecord =>
    rows.apiKeyFromRow(insert.get(...rows.newKeyValues(key, now())) as rows.ApiKeyRow),
  );
  // Run IMMEDIATE: the write lock first, so a rotation in another process waits, then sees this one.
  const rotate = db.transaction(
    (
      id: number,
      { hash, displayPrefix }: store.ReplacementKey,
      graceMs: number,
    ): store.KeyRotation => {
      const at = clock.now();
      const [revokedAt, expiresAt] = retirement(at, graceMs);
      const found = selectById.get(id);
      const refusal = refuseRotation(found && rows.apiKeyFromRow(found));
      if (refusal) return refusal;
      const createdAt = new Date(at).toISOString();
      const record = insertReplacement.get({ hash, displayPrefix, now: createdAt, id });
      const replaced = retire.get(revokedAt, expiresAt, id);
      return {
        kind: 'rotated',
        record: rows.apiKeyFromRow(record as rows.ApiKeyRow),
        replaced: rows.apiKeyFromRow(replaced as rows.ApiKeyRow),
      };
    },
  );
  return {
    create: (key: NewApiKey): Promise<ApiKeyRecord> =>
      run(() => keyWrite(() => create.immediate(key))),
    findActiveByHash: (hash: string): Promise<ApiKeyRecord | undefined> =>
      run(() => {
        const row = selectActive.get({ hash, now: now() });
        return row && rows.apiKeyFromRow(row);
      }),
    list: (): Promise<ApiKeyRecord[]> => run(() => selectAll.all().map(rows.apiKeyFromRow)),
    revoke: (id: number): Promise<boolean> =>
      run(() => keyWrite(() => revoke.run({ id, now: now() }).changes === 1)),
    rotate: (
      id: number,
      replacement: store.ReplacementKey,
      graceMs: number,
    ): Promise<store.KeyRotation> =>
      run(() => keyWrite(() => rotate.immediate(id, replacement, graceMs))),
    countActive: (): Promise<number> =>
      run(() => (countActive.get({ now: now() }) as { n: number }).n),
  };
}
