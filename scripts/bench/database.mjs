// A store for one data set: a SQLite file in the run's temporary folder or a scratch
// PostgreSQL database next to TEST_DATABASE_URL (dropped afterwards), migrated, holding the
// bench's API key and the seeded pets.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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

function sqliteFile(dir, name) {
  const file = path.join(dir, `${name}.db`);
  return { url: `file:${file}`, name: file, file, drop: async () => {} };
}

async function scratchPostgres() {
  const adminUrl =
    process.env.TEST_DATABASE_URL ?? 'postgres://petstore:petstore@127.0.0.1:5432/petstore_test';
  const name = `petstore_bench_${randomBytes(6).toString('hex')}`;
  await admin(adminUrl, `create database "${name}" template template0`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
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
