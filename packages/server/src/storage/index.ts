/**
 * Storage: pets and API keys behind one small interface, with a SQLite adapter (the embedded
 * default) and a PostgreSQL adapter, chosen by `DATABASE_URL` in `openStorage`.
 */
export { StoreUnavailableError } from './errors.js';
export { STORE_RETRY_AFTER_SECONDS, translateStoreError } from './translate.js';
export { openStorage, type OpenStorageOptions } from './open-storage.js';
export { openSqliteStorage, type SqliteStorageOptions } from './sqlite/index.js';
export { openPostgresStorage, type PostgresStorageOptions } from './postgres/index.js';
export type * from './store.js';
export { type StoreCallWrapper, wrapServedCalls } from './wrap-served-calls.js';
