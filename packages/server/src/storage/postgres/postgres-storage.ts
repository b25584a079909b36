import { createHash } from 'node:crypto';
import type { NewPet, Pet } from '@petstore/types';
import type pg from 'pg';
import { type Clock, systemClock } from '../../clock.js';
import type { ApiKeyRecord, NewApiKey } from '../../domain.js';
import { translateStoreErrors } from '../errors.js';
import {
  type ApiKeyRow,
  apiKeyFromRow,
  createdPetFromRow,
  KEY_COLUMNS,
  NEW_KEY_COLUMNS,
  newKeyValues,
  PET_COLUMNS,
  type PetRow,
  petFromRow,
  toSafeInteger,
} from '../rows.js';
import { replayOrRefuse } from '../idempotency.js';
import { refuseRotation, retirement } from '../key-rotation.js';
import type * as store from '../store.js';
import { type KeyChanges, listenForKeyChanges } from './key-changes.js';
import { groupedCreates, groupedCreatesOnce } from './grouped-creates.js';
import { migratePostgres } from './migrations.js';
import { withClient } from './pooled-connection.js';
import { sharedReads } from './shared-reads.js';

/** How to reach PostgreSQL and what the adapter needs besides. */
export interface PostgresStorageOptions {
  /** `postgres://user:password@host:port/database` (libpq URL syntax). */
  connectionString: string;
  /** Where key timestamps come from; the system clock by default. */
  clock?: Clock | undefined;
  /** Pool size; 10 by default. */
  maxConnections?: number | undefined;
  /**
   * Told when an idle pooled connection fails (e.g. the database restarted). The pool drops
   * that connection and reconnects on the next query, so this is for logging only.
   */
  onIdleConnectionError?: ((error: Error) => void) | undefined;
  /** Told how many creates each grouped statement committed (grouped-creates.ts). */
  onGroupCommitted?: ((size: number) => void) | undefined;
}

/**
 * Errors that mean "PostgreSQL cannot be reached or is going away", not "this query is wrong":
 * SQLSTATE class 08 (connection exception), 57P01–57P03 (shutdown, cannot connect now), 53300
 * (too many connections); socket errors; and pg's own messages for a connection that ended or a
 * pool that could not connect in time.
 */
function isUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (/^08|^57P0[1-3]$|^53300$/.test(code)) return true;
    if (/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN)$/.test(code))
      return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
      message,
    )
  );
}

/** Runs a query, translating "unavailable" errors. */
const run = <T>(operation: () => Promise<T>): Promise<T> =>
  translateStoreErrors(operation, isUnavailable);

/**
 * Opens a connection pool, runs the schema migrations (idempotent, safe when several
 * instances start at once) and returns the store. Many stateless server instances can share
 * one database this way.
 *
 * @example
 * ```ts
 * const storage = await openPostgresStorage({ connectionString: 'postgres://localhost/petstore' });
 * const pet = await storage.pets.create({ name: 'Rex', categoryId: 1 });
 * await storage.close();
 * ```
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<store.Storage> {
  // Loaded only for a postgres:// DATABASE_URL: a server on SQLite never pays for it.
  const { default: driver } = await import('pg');
  const pool = new driver.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    // Fail a health check or a request instead of hanging when the database is unreachable.
    connectionTimeoutMillis: 5_000,
    application_name: 'petstore',
  });
  // Without a listener, an idle connection's error would be an unhandled 'error' event and
  // would crash the process; the pool already discards the broken connection.
  pool.on('error', (error) => options.onIdleConnectionError?.(error));
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const keyChanges = listenForKeyChanges(driver, options.connectionString, (error) =>
    options.onIdleConnectionError?.(error),
  );
  return postgresStorage(pool, options, keyChanges);
}

/**
 * The store over one pool. Its parts are plain objects of functions (so decorators can spread
 * them); queries are named statements, which each connection prepares once, then reuses.
 */
function postgresStorage(
  pool: pg.Pool,
  { clock = systemClock, onGroupCommitted }: PostgresStorageOptions,
  keyChanges: KeyChanges,
): store.Storage {
  let closed = false;
  return {
    pets: postgresPets(pool, onGroupCommitted),
    keys: postgresKeys(pool, clock, keyChanges),
    // The keys' revision moves with the notifications of key changes (key-changes.ts). The
    // pets' is unknown: another instance's create is known here only by asking the database, and
    // a notification would arrive after that create's 201, letting a page served from memory
    // miss a pet its creator was already told exists.
    revisions: () => ({ keys: keyChanges.revision(), pets: undefined }),
    ping: () => run(async () => void (await pool.query('select 1'))),
    async close() {
      // pg throws when a pool is ended twice; closing is idempotent here (shutdown paths overlap).
      if (closed) return;
      closed = true;
      await keyChanges.close();
      await pool.end();
    },
  };
}

function postgresPets(
  pool: pg.Pool,
  onGroupCommitted: ((size: number) => void) | undefined,
): store.PetRepository {
  // The creates of one turn share one statement and its commit, plain and idempotent ones
  // apart (grouped-creates.ts); identical reads not yet sent share one query (shared-reads.ts).
  const insertPet = groupedCreates(pool, onGroupCommitted);
  const insertPetOnce = groupedCreatesOnce(pool, onGroupCommitted);
  const read = sharedReads(pool);

  /**
   * An idempotent create is one call of `petstore_create_pet_once` (migration 5), sent with the
   * other idempotent creates of its turn (grouped-creates.ts). A transaction-scoped advisory
   * lock on the key (tried, never waited for) tells a request that another instance is
   * processing the same key right now; it is released by the commit, the rollback, or the
   * connection's end if an instance dies, so no stale "in flight" can outlive its request.
   */
  async function createOnce(
    pet: NewPet,
    request: store.IdempotentCreate,
  ): Promise<store.IdempotentOutcome> {
    const row = await insertPetOnce({ pet, request, lockId: advisoryLockId(request) });
    switch (row.outcome) {
      case 'in_flight':
        return { kind: 'in_flight' };
      case 'known':
        return replayOrRefuse(
          { fingerprint: row.known_fingerprint ?? '', response_body: row.known_body ?? '' },
          request,
        );
      default:
        return {
          kind: 'created',
          pet: createdPetFromRow({
            id: row.created_id,
            name: row.created_name,
            category_id: row.created_category_id,
            status: row.created_status,
          } as unknown as PetRow),
        };
    }
  }

  return {
    create: (pet: NewPet): Promise<Pet> => run(() => insertPet(pet)),
    createIdempotent: (
      pet: NewPet,
      request: store.IdempotentCreate,
    ): Promise<store.IdempotentOutcome> => run(() => createOnce(pet, request)),
    purgeExpiredIdempotencyKeys: (now: number): Promise<number> =>
      run(async () => {
        const result = await pool.query({
          name: 'idempotency_purge',
          text: 'delete from idempotency_keys where expires_at < $1',
          values: [new Date(now).toISOString()],
        });
        return result.rowCount ?? 0;
      }),
    get: (id: number): Promise<Pet | undefined> =>
      run(() =>
        read(`get ${id}`, async (client) => {
          const result = await client.query<PetRow>({
            name: 'pets_get',
            text: `select ${PET_COLUMNS} from pets where id = $1`,
            values: [id],
          });
          const row = result.rows[0];
          return row && petFromRow(row);
        }),
      ),
    // Ids start at 1, so "after 0" is "from the start". Two statements rather than
    // "($1 is null or status = $1)", which would keep the planner from using pets_status_id.
    list: ({ limit, status, afterId = 0 }: store.ListPetsQuery): Promise<Pet[]> =>
      run(() =>
        read(`list ${limit} ${status ?? ''} ${afterId}`, async (client) => {
          const result =
            status === undefined
              ? await client.query<PetRow>({
                  name: 'pets_list',
                  text: `select ${PET_COLUMNS} from pets where id > $1 order by id limit $2`,
                  values: [afterId, limit],
                })
              : await client.query<PetRow>({
                  name: 'pets_list_by_status',
                  text: `select ${PET_COLUMNS} from pets where status = $1 and id > $2 order by id limit $3`,
                  values: [status, afterId, limit],
                });
          return result.rows.map(petFromRow);
        }),
      ),
  };
}

function postgresKeys(pool: pg.Pool, clock: Clock, keyChanges: KeyChanges): store.ApiKeyRepository {
  /** The clock's time as an ISO 8601 string (timestamptz keeps the milliseconds). */
  const now = () => new Date(clock.now()).toISOString();
  /** Active: not revoked, and not expired at the time `$at` (a parameter's number). */
  const active = (at: string) =>
    `revoked_at is null and (expires_at is null or expires_at > ${at})`;
  /**
   * One transaction: the old key's row is locked (`for update`), so a concurrent rotation of
   * the same key waits, then sees this one's revocation and is refused.
   */
  async function rotate(
    client: pg.PoolClient,
    id: number,
    { hash, displayPrefix }: store.ReplacementKey,
    graceMs: number,
  ): Promise<store.KeyRotation> {
    const at = clock.now();
    const [revokedAt, expiresAt] = retirement(at, graceMs);
    const found = await client.query<ApiKeyRow>({
      name: 'api_keys_lock',
      text: `select ${KEY_COLUMNS} from api_keys where id = $1 for update`,
      values: [id],
    });
    const row = found.rows[0];
    const refusal = refuseRotation(row && apiKeyFromRow(row));
    if (refusal) return refusal;
    const record = await client.query<ApiKeyRow>({
      name: 'api_keys_insert_replacement',
      text: `insert into api_keys (${NEW_KEY_COLUMNS}, replaces_id)
             select $1, $2, name, plan, per_minute, per_day, $3, id from api_keys where id = $4
             returning ${KEY_COLUMNS}`,
      values: [hash, displayPrefix, new Date(at).toISOString(), id],
    });
    const replaced = await client.query<ApiKeyRow>({
      name: 'api_keys_retire',
      text: `update api_keys set revoked_at = $2, expires_at = $3 where id = $1 returning ${KEY_COLUMNS}`,
      values: [id, revokedAt, expiresAt],
    });
    return {
      kind: 'rotated',
      record: apiKeyFromRow(firstRow(record)),
      replaced: apiKeyFromRow(firstRow(replaced)),
    };
  }
  return {
    create: (key: NewApiKey): Promise<ApiKeyRecord> =>
      run(async () => {
        const result = await pool.query<ApiKeyRow>({
          name: 'api_keys_create',
          text: `insert into api_keys (${NEW_KEY_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7) returning ${KEY_COLUMNS}`,
          values: newKeyValues(key, now()),
        });
        keyChanges.changed();
        return apiKeyFromRow(firstRow(result));
      }),
    findActiveByHash: (hash: string): Promise<ApiKeyRecord | undefined> =>
      run(async () => {
        const result = await pool.query<ApiKeyRow>({
          name: 'api_keys_find_active',
          text: `select ${KEY_COLUMNS} from api_keys where hash = $1 and ${active('$2')}`,
          values: [hash, now()],
        });
        const row = result.rows[0];
        return row && apiKeyFromRow(row);
      }),
    list: (): Promise<ApiKeyRecord[]> =>
      run(async () => {
        const result = await pool.query<ApiKeyRow>({
          name: 'api_keys_list',
          text: `select ${KEY_COLUMNS} from api_keys order by id`,
        });
        return result.rows.map(apiKeyFromRow);
      }),
    revoke: (id: number): Promise<boolean> =>
      run(async () => {
        const result = await pool.query({
          name: 'api_keys_revoke',
          text: `update api_keys set revoked_at = $2 where id = $1 and ${active('$2')}`,
          values: [id, now()],
        });
        keyChanges.changed();
        return result.rowCount === 1;
      }),
    rotate: (
      id: number,
      replacement: store.ReplacementKey,
      graceMs: number,
    ): Promise<store.KeyRotation> =>
      run(async () => {
        const rotation = await inTransaction(pool, (client) =>
          rotate(client, id, replacement, graceMs),
        );
        keyChanges.changed();
        return rotation;
      }),
    countActive: (): Promise<number> =>
      run(async () => {
        const result = await pool.query<{ count: string }>({
          name: 'api_keys_count_active',
          text: `select count(*) as count from api_keys where ${active('$1')}`,
          values: [now()],
        });
        return toSafeInteger(firstRow(result).count, 'count');
      }),
  };
}

/**
 * Runs `work` in a transaction on one pooled connection: committed when it resolves, rolled
 * back when it throws (and the connection, possibly broken, discarded rather than reused).
 */
function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withClient(pool, async (client) => {
    await client.query('begin');
    try {
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    }
  });
}

/** A 64-bit advisory lock id for one API key's `Idempotency-Key` (a hash of both). */
export function advisoryLockId({ apiKeyId, key }: store.IdempotentCreate): string {
  const digest = createHash('sha256').update(`${apiKeyId}:${key}`).digest();
  return digest.readBigInt64BE(0).toString();
}

function firstRow<Row extends pg.QueryResultRow>(result: pg.QueryResult<Row>): Row {
  const row = result.rows[0];
  if (row === undefined) throw new Error('PostgreSQL returned no row where one was expected.');
  return row;
}
