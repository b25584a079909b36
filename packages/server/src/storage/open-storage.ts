import type { Clock } from '../clock.js';
import { openPostgresStorage } from './postgres/index.js';
import { openSqliteStorage } from './sqlite/index.js';
import type { Storage } from './store.js';

export interface OpenStorageOptions {
  /** Where record timestamps come from (defaults to the system clock). */
  clock?: Clock;
  /**
   * Told when an idle PostgreSQL connection fails (e.g. the server restarted): the pool
   * replaces it on the next query, but an operator wants to know.
   */
  onConnectionError?: (error: Error) => void;
  /** PostgreSQL only: how many connections the pool may open (default 10). */
  poolSize?: number;
  /**
   * Told how many writes each group commit carried: SQLite's writer thread, PostgreSQL's
   * grouped creates.
   */
  onGroupCommitted?: (size: number) => void;
}

/**
 * Opens the storage a `DATABASE_URL` names and runs its migrations:
 * `file:PATH` (SQLite at PATH; relative to the working directory) or `file::memory:`;
 * `postgres://…` or `postgresql://…` (PostgreSQL, for several instances sharing one database).
 *
 * @example
 * ```ts
 * const storage = await openStorage('file:./data/petstore.db');
 * ```
 */
export async function openStorage(
  databaseUrl: string,
  options: OpenStorageOptions = {},
): Promise<Storage> {
  if (databaseUrl.startsWith('file:')) {
    const file = databaseUrl.slice('file:'.length);
    if (file === '')
      throw new Error('DATABASE_URL file: needs a path, e.g. file:./data/petstore.db');
    return openSqliteStorage(file, options);
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return openPostgresStorage({
      connectionString: databaseUrl,
      clock: options.clock,
      maxConnections: options.poolSize,
      onIdleConnectionError: options.onConnectionError,
      onGroupCommitted: options.onGroupCommitted,
    });
  }
  throw new Error(
    `Unsupported DATABASE_URL scheme in "${databaseUrl.split(':')[0]}:…": use file:PATH (SQLite) or postgres://… (PostgreSQL).`,
  );
}
