/** The PostgreSQL adapter (pg): one database shared by any number of server instances. */
export { migratePostgres, type PostgresMigration, postgresMigrations } from './migrations.js';
export { openPostgresStorage, type PostgresStorageOptions } from './postgres-storage.js';
