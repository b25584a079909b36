import type { NewPet, Pet, PetStatus } from '@petstore/types';
import pg from 'pg';
import { type Clock, systemClock } from '../clock.js';
import { migratePostgres } from './postgres-migrations.js';
import type {
  ApiKeyRecord,
  ApiKeyRepository,
  ListPetsQuery,
  NewApiKey,
  PetRepository,
  Plan,
  Storage,
} from './store.js';

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
}

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
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  const pool = new pg.Pool({
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
  return new PostgresStorage(pool, options.clock ?? systemClock);
}

class PostgresStorage implements Storage {
  readonly pets: PetRepository;
  readonly keys: ApiKeyRepository;
  #closed = false;

  constructor(
    private readonly pool: pg.Pool,
    clock: Clock,
  ) {
    this.pets = new PostgresPetRepository(pool);
    this.keys = new PostgresApiKeyRepository(pool, clock);
  }

  async ping(): Promise<void> {
    await this.pool.query('select 1');
  }

  async close(): Promise<void> {
    // pg throws when a pool is ended twice; closing is idempotent here (shutdown paths overlap).
    if (this.#closed) return;
    this.#closed = true;
    await this.pool.end();
  }
}

/**
 * pg returns `bigint` columns as strings because int64 exceeds what a JS number holds
 * exactly. Convert only when exact; a rounded id would silently address another row.
 */
function toSafeInteger(text: string, column: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${column} ${text} is beyond the safe integer range (±(2^53−1)).`);
  }
  return value;
}

interface PetRow {
  id: string;
  name: string;
  category_id: string;
  status: PetStatus | null;
}

const PET_COLUMNS = 'id, name, category_id, status';

function toPet(row: PetRow): Pet {
  const pet: Pet = {
    id: toSafeInteger(row.id, 'pets.id'),
    name: row.name,
    categoryId: toSafeInteger(row.category_id, 'pets.category_id'),
  };
  // NULL is "no status": the property stays absent rather than being null.
  if (row.status !== null) pet.status = row.status;
  return pet;
}

class PostgresPetRepository implements PetRepository {
  constructor(private readonly pool: pg.Pool) {}

  async create(pet: NewPet): Promise<Pet> {
    const result = await this.pool.query<PetRow>({
      name: 'pets_create',
      text: `insert into pets (name, category_id, status) values ($1, $2, $3) returning ${PET_COLUMNS}`,
      values: [pet.name, pet.categoryId, pet.status ?? null],
    });
    return toPet(firstRow(result));
  }

  async get(id: number): Promise<Pet | undefined> {
    const result = await this.pool.query<PetRow>({
      name: 'pets_get',
      text: `select ${PET_COLUMNS} from pets where id = $1`,
      values: [id],
    });
    const row = result.rows[0];
    return row === undefined ? undefined : toPet(row);
  }

  async list(query: ListPetsQuery): Promise<Pet[]> {
    // Ids start at 1, so "after 0" is "from the start". Two statements rather than
    // "($1 is null or status = $1)", which would keep the planner from using pets_status_id.
    const afterId = query.afterId ?? 0;
    const result =
      query.status === undefined
        ? await this.pool.query<PetRow>({
            name: 'pets_list',
            text: `select ${PET_COLUMNS} from pets where id > $1 order by id limit $2`,
            values: [afterId, query.limit],
          })
        : await this.pool.query<PetRow>({
            name: 'pets_list_by_status',
            text: `select ${PET_COLUMNS} from pets where status = $1 and id > $2 order by id limit $3`,
            values: [query.status, afterId, query.limit],
          });
    return result.rows.map(toPet);
  }
}

interface ApiKeyRow {
  id: string;
  name: string | null;
  plan: Plan;
  per_minute: string;
  per_day: string;
  display_prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

const KEY_COLUMNS = 'id, name, plan, per_minute, per_day, display_prefix, created_at, revoked_at';

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: toSafeInteger(row.id, 'api_keys.id'),
    name: row.name,
    plan: row.plan,
    perMinute: toSafeInteger(row.per_minute, 'api_keys.per_minute'),
    perDay: toSafeInteger(row.per_day, 'api_keys.per_day'),
    displayPrefix: row.display_prefix,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at === null ? null : row.revoked_at.toISOString(),
  };
}

class PostgresApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async create(key: NewApiKey): Promise<ApiKeyRecord> {
    const result = await this.pool.query<ApiKeyRow>({
      name: 'api_keys_create',
      text: `insert into api_keys (hash, display_prefix, name, plan, per_minute, per_day, created_at)
             values ($1, $2, $3, $4, $5, $6, $7) returning ${KEY_COLUMNS}`,
      values: [
        key.hash,
        key.displayPrefix,
        key.name,
        key.plan,
        key.perMinute,
        key.perDay,
        this.now(),
      ],
    });
    return toApiKey(firstRow(result));
  }

  async findActiveByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const result = await this.pool.query<ApiKeyRow>({
      name: 'api_keys_find_active',
      text: `select ${KEY_COLUMNS} from api_keys where hash = $1 and revoked_at is null`,
      values: [hash],
    });
    const row = result.rows[0];
    return row === undefined ? undefined : toApiKey(row);
  }

  async list(): Promise<ApiKeyRecord[]> {
    const result = await this.pool.query<ApiKeyRow>({
      name: 'api_keys_list',
      text: `select ${KEY_COLUMNS} from api_keys order by id`,
    });
    return result.rows.map(toApiKey);
  }

  async revoke(id: number): Promise<boolean> {
    const result = await this.pool.query({
      name: 'api_keys_revoke',
      text: 'update api_keys set revoked_at = $2 where id = $1 and revoked_at is null',
      values: [id, this.now()],
    });
    return result.rowCount === 1;
  }

  async countActive(): Promise<number> {
    const result = await this.pool.query<{ count: string }>({
      name: 'api_keys_count_active',
      text: 'select count(*) as count from api_keys where revoked_at is null',
    });
    return toSafeInteger(firstRow(result).count, 'count');
  }

  /** The clock's time as an ISO 8601 string (timestamptz keeps the milliseconds). */
  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

function firstRow<Row extends pg.QueryResultRow>(result: pg.QueryResult<Row>): Row {
  const row = result.rows[0];
  if (row === undefined) throw new Error('PostgreSQL returned no row where one was expected.');
  return row;
}
