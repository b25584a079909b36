import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the tests may use (a role that may CREATEDB); CI starts it. */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://petstore:petstore@127.0.0.1:5432/petstore_test';

/** A database that exists only for one test: its own name, so parallel runs never meet. */
export interface TemporaryPostgresDatabase {
  /** Connection string of the new database. */
  url: string;
  name: string;
  /** Drops the database, disconnecting anyone still connected. */
  drop(): Promise<void>;
}

/**
 * Creates an empty, uniquely named database next to `TEST_DATABASE_URL`'s. Built from
 * `template0`, which nobody can connect to, so a session left open on `template1` by
 * someone else cannot make CREATE DATABASE fail.
 */
export async function createTemporaryPostgresDatabase(): Promise<TemporaryPostgresDatabase> {
  const name = `petstore_t_${process.pid}_${randomBytes(6).toString('hex')}`;
  await runAdmin(`create database "${name}" template template0`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    // WITH (FORCE) (PostgreSQL 13+): a pool a failed test forgot to close must not leak the database.
    drop: () => dropDatabase(name),
  };
}

async function runAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Drops `name`, disconnecting its sessions. WITH (FORCE) may not terminate a session of
 * another role: an autovacuum worker that happens to be working on the database then fails the
 * drop with 42501 (insufficient privilege) until it finishes, which takes moments. So that
 * error is retried, for up to 10 s.
 */
async function dropDatabase(name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await runAdmin(`drop database if exists "${name}" with (force)`);
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== '42501' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
