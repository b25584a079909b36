// A store for one data set: a SQLite file in the run's temporary folder or a scratch
// PostgreSQL database next to TEST_DATABASE_URL (dropped afterwards), migrated, holding the
// bench's API key and the seeded pets; and each round's fresh copy of it.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { undoLater } from './cleanup.mjs';
import { BenchError } from './errors.mjs';
import { keysCli, root, serverRequire } from './paths.mjs';
import { seedPostgres, seedSqlite } from './seed.mjs';

const run = promisify(execFile);

/**
 * Creates the store, lets the keys CLI migrate it (it opens the store as the server does, so
 * the schema is the server's own) and make an enterprise key no run can exhaust, then seeds
 * `pets` pets. Returns `{ url, name, apiKey, drop }` (name: the file or the database).
 */
export async function openStore(kind, { pets, dir, name }) {
  const created = kind === 'sqlite' ? sqliteFile(dir, name) : await scratchPostgres();
  const store = { ...created, drop: undoLater(created.drop) };
  try {
    const apiKey = await createBenchKey(store.url);
    if (kind === 'sqlite') seedSqlite(store.file, pets);
    else await seedPostgres(store.url, pets);
    return { ...store, apiKey };
  } catch (error) {
    await store.drop();
    throw error;
  }
}

/**
 * A copy of the seeded `store` as it is now, under `name`, for one round: what a round's creates
 * add (pets, idempotency keys) stays in its copy, so every round starts from the same data.
 * SQLite: `VACUUM INTO` a file beside it; PostgreSQL: a database made with it as template (no
 * process may be connected to it then). Returns `{ url, name, file?, apiKey, pets, drop }`.
 */
export async function copyStore(kind, store, { dir, name }) {
  const copy = kind === 'sqlite' ? sqliteCopy(store, dir, name) : await postgresCopy(store);
  return { ...copy, apiKey: store.apiKey, pets: store.pets, drop: undoLater(copy.drop) };
}

function sqliteCopy(store, dir, name) {
  const copy = sqliteFile(dir, name);
  const Database = serverRequire('better-sqlite3');
  const db = new Database(store.file, { readonly: true });
  try {
    db.prepare('VACUUM INTO ?').run(copy.file);
  } finally {
    db.close();
  }
  const files = ['', '-wal', '-shm'].map((suffix) => `${copy.file}${suffix}`);
  return { ...copy, drop: () => Promise.all(files.map((file) => rm(file, { force: true }))) };
}

async function postgresCopy(store) {
  const copy = scratchDatabase();
  // A server of the round before may still be leaving (its backends end after it has exited):
  // CREATE DATABASE refuses a template in use (55006), so try again for a few seconds.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await admin(copy.adminUrl, `create database "${copy.name}" template "${store.name}"`);
      return copy;
    } catch (error) {
      if (error.code !== '55006' || attempt === 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function sqliteFile(dir, name) {
  const file = path.join(dir, `${name}.db`);
  return { url: `file:${file}`, name: file, file, drop: async () => {} };
}

async function scratchPostgres() {
  const database = scratchDatabase();
  await admin(database.adminUrl, `create database "${database.name}" template template0`);
  return database;
}

/** A new scratch database's name, URL and drop, next to TEST_DATABASE_URL; not yet created. */
function scratchDatabase() {
  const adminUrl =
    process.env.TEST_DATABASE_URL ?? 'postgres://petstore:petstore@127.0.0.1:5432/petstore_test';
  const name = `petstore_bench_${randomBytes(6).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    adminUrl,
    drop: () => admin(adminUrl, `drop database if exists "${name}" with (force)`),
  };
}

async function admin(connectionString, sql) {
  const pg = serverRequire('pg');
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The keys CLI (from source, as `npm run keys` runs it) prints the raw key last. */
async function createBenchKey(databaseUrl) {
  const args = ['--import', 'tsx', keysCli, 'create', '--plan', 'enterprise'];
  args.push('--per-minute', '100000000', '--per-day', '100000000000', '--name', 'bench');
  const { stdout } = await run(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl },
  });
  const key = stdout.trim().split('\n').at(-1);
  if (!key?.startsWith('psk_')) throw new BenchError(`the keys CLI printed no key:\n${stdout}`);
  return key;
}
