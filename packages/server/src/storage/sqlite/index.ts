/** The SQLite adapter (better-sqlite3, WAL): the embedded default store. */
export { migrateSqlite, sqliteMigrations } from './migrations.js';
export { openSqliteStorage, type SqliteStorageOptions } from './sqlite-storage.js';
