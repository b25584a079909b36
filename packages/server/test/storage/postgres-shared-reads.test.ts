import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sharedReads } from '../../src/storage/postgres/shared-reads.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';
import { inOneTurn, nextTurn } from '../support/event-loop-turns.js';

/** What a read answered, tagged with the connection's backend so two queries can be told apart. */
const backendAndCount = (client: pg.PoolClient) =>
  client
    .query<{ pid: number; n: string }>('select pg_backend_pid() as pid, count(*) as n from items')
    .then((result) => result.rows[0]);

describe('PostgreSQL reads shared until they are sent', () => {
  let database: TemporaryPostgresDatabase;
  let admin: pg.Client;
  let pool: pg.Pool;
  /** How many times the pool handed out a connection: one per query sent. */
  let acquired: number;

  beforeEach(async () => {
    database = await createTemporaryPostgresDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query('create table items (id int)');
    acquired = 0;
  });

  afterEach(async () => {
    await pool.end();
    await admin.end();
    await database.drop();
  });

  const openPool = (options: pg.PoolConfig) => {
    pool = new pg.Pool({ connectionString: database.url, ...options });
    pool.on('acquire', () => {
      acquired += 1;
    });
  };

  it('answers identical reads of one turn with one query, other reads with their own', async () => {
    openPool({ max: 2 });
    const read = sharedReads(pool);
    // Two connections open and idle: a read sent at once would not wait for one.
    await Promise.all([read('warm 1', backendAndCount), read('warm 2', backendAndCount)]);
    acquired = 0;

    // Three callbacks of one turn (as the requests a turn reads from its sockets).
    const [a, b, c] = await inOneTurn(
      () => read('count', backendAndCount),
      () => read('count', backendAndCount),
      () => read('other', backendAndCount),
    );
    expect(acquired).toBe(2);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(c).toEqual({ pid: expect.any(Number), n: '0' });
  });

  it('lets a read of a later turn join an identical one still waiting for a connection', async () => {
    openPool({ max: 1 });
    const read = sharedReads(pool);
    const busy = await pool.connect();
    acquired = 0;

    const first = read('count', backendAndCount);
    await nextTurn();
    await nextTurn();
    const twin = read('count', backendAndCount);
    busy.release();

    expect(await twin).toBe(await first);
    expect(acquired).toBe(1);
  });

  it('sends a read of its own once its twin has left, and it sees what was committed since', async () => {
    openPool({ max: 2 });
    const read = sharedReads(pool);
    let leave!: () => void;
    const gate = new Promise<void>((resolve) => (leave = resolve));
    let entered!: () => void;
    const sending = new Promise<void>((resolve) => (entered = resolve));

    const first = read('count', async (client) => {
      entered();
      await gate;
      return backendAndCount(client);
    });
    await sending;
    await admin.query('insert into items values (1)');
    const later = read('count', backendAndCount);
    leave();

    const [a, b] = await Promise.all([first, later]);
    expect(b).not.toBe(a);
    expect(b).toMatchObject({ n: '1' });
    expect(acquired).toBe(2);
  });

  it('fails every joined read when no connection comes, and the next read asks anew', async () => {
    openPool({ max: 1, connectionTimeoutMillis: 100 });
    const read = sharedReads(pool);
    const busy = await pool.connect();

    const first = read('count', backendAndCount);
    const twin = read('count', backendAndCount);
    await expect(first).rejects.toThrow('timeout exceeded when trying to connect');
    await expect(twin).rejects.toThrow('timeout exceeded when trying to connect');
    busy.release();

    await expect(read('count', backendAndCount)).resolves.toMatchObject({ n: '0' });
  });

  it('survives a connection lost while checked out: that read fails, the next gets a new connection', async () => {
    openPool({ max: 1 });
    const read = sharedReads(pool);
    const lost = read('lost', async (client) => {
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      // Lost between two queries: pg emits `error` on the connection itself, which, with no
      // listener, would be thrown from the socket's callback and end the process.
      const ended = new Promise((resolve) => client.once('end', resolve));
      await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
      await ended;
      return client.query('select 1');
    });

    await expect(lost).rejects.toThrow('not queryable');
    const next = await read('count', backendAndCount);
    expect(next).toMatchObject({ n: '0' });
  });
});
