import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CreateOnce,
  groupedCreates,
  groupedCreatesOnce,
  MAX_GROUP,
} from '../../src/storage/postgres/grouped-creates.js';
import { advisoryLockId } from '../../src/storage/postgres/postgres-storage.js';
import { migratePostgres } from '../../src/storage/postgres/migrations.js';
import { inOneTurn, nextTurn } from '../support/event-loop-turns.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';

describe('PostgreSQL creates grouped into one statement', () => {
  let database: TemporaryPostgresDatabase;
  let pool: pg.Pool;
  /** How many times the pool handed out a connection: one per statement sent. */
  let acquired: number;

  beforeEach(async () => {
    database = await createTemporaryPostgresDatabase();
  });

  afterEach(async () => {
    await pool.end();
    await database.drop();
  });

  const openPool = async (options: pg.PoolConfig = {}) => {
    pool = new pg.Pool({ connectionString: database.url, ...options });
    await migratePostgres(pool);
    acquired = 0;
    pool.on('acquire', () => {
      acquired += 1;
    });
  };

  const stored = async () =>
    (await pool.query<{ id: string; name: string }>('select id, name from pets order by id')).rows;

  it('inserts the creates of one turn with one statement, each with its own id, in the order asked', async () => {
    await openPool();
    const groups: number[] = [];
    const create = groupedCreates(pool, (size) => groups.push(size));

    const pets = await inOneTurn(
      () => create({ name: 'Rex', categoryId: 1, status: 'available' }),
      () => create({ name: 'Tom', categoryId: 2 }),
      () => create({ name: 'Kit', categoryId: 3, status: 'sold' }),
    );

    expect(acquired).toBe(1);
    expect(groups).toEqual([3]);
    expect(pets).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      { id: 2, name: 'Tom', categoryId: 2 },
      { id: 3, name: 'Kit', categoryId: 3, status: 'sold' },
    ]);
    expect(await stored()).toEqual([
      { id: '1', name: 'Rex' },
      { id: '2', name: 'Tom' },
      { id: '3', name: 'Kit' },
    ]);
  });

  it('puts a create asked after its group was sent into the next group', async () => {
    await openPool({ max: 1 });
    const create = groupedCreates(pool);
    const sent = new Promise((resolve) => pool.once('acquire', resolve));

    const rex = create({ name: 'Rex', categoryId: 1 });
    await sent;
    await nextTurn();
    const tom = create({ name: 'Tom', categoryId: 1 });

    expect(await Promise.all([rex, tom])).toEqual([
      { id: 1, name: 'Rex', categoryId: 1 },
      { id: 2, name: 'Tom', categoryId: 1 },
    ]);
    expect(acquired).toBe(2);
  });

  it('keeps names the array literal must escape as they were sent', async () => {
    await openPool();
    const create = groupedCreates(pool);
    const names = ['NULL', '"quoted"', 'back\\slash', '{brace}, comma', ' spaced ', 'ünï 🐕'];

    const pets = await Promise.all(names.map((name) => create({ name, categoryId: 1 })));

    expect(pets.map((pet) => pet.name)).toEqual(names);
    expect((await stored()).map((row) => row.name)).toEqual(names);
  });

  it('inserts a group refused for its data again one pet at a time: only the pet at fault fails', async () => {
    await openPool();
    const groups: number[] = [];
    const create = groupedCreates(pool, (size) => groups.push(size));

    const [rex, nul, tom] = await Promise.allSettled([
      create({ name: 'Rex', categoryId: 1 }),
      create({ name: 'a\u0000b', categoryId: 1 }),
      create({ name: 'Tom', categoryId: 1 }),
    ]);

    expect(rex).toMatchObject({ status: 'fulfilled', value: { name: 'Rex' } });
    expect(nul).toMatchObject({ status: 'rejected', reason: { code: '22021' } });
    expect(tom).toMatchObject({ status: 'fulfilled', value: { name: 'Tom' } });
    expect(acquired).toBe(1 + 3);
    expect(groups).toEqual([1, 1]);
    expect((await stored()).map((row) => row.name)).toEqual(['Rex', 'Tom']);
  });

  it('fails the whole group on any other error, and inserts none of it again', async () => {
    await openPool({ max: 1, connectionTimeoutMillis: 100 });
    const create = groupedCreates(pool);
    const busy = await pool.connect();

    const outcomes = await Promise.allSettled([
      create({ name: 'Rex', categoryId: 1 }),
      create({ name: 'Tom', categoryId: 1 }),
    ]);
    busy.release();

    expect(outcomes).toEqual([
      { status: 'rejected', reason: new Error('timeout exceeded when trying to connect') },
      { status: 'rejected', reason: new Error('timeout exceeded when trying to connect') },
    ]);
    expect(await stored()).toEqual([]);
    await expect(create({ name: 'Kit', categoryId: 1 })).resolves.toMatchObject({ id: 1 });
  });

  it(`starts another group past ${MAX_GROUP} pets`, async () => {
    await openPool();
    const create = groupedCreates(pool);

    const pets = await Promise.all(
      Array.from({ length: MAX_GROUP + 1 }, (_, index) =>
        create({ name: `p${index}`, categoryId: 1 }),
      ),
    );

    expect(acquired).toBe(2);
    expect(pets.map((pet) => pet.id)).toEqual(pets.map((_, index) => index + 1));
  });

  /** An idempotent create of `key` (API key 1) for a pet named `name`. */
  const once = (key: string, name = 'Rex'): CreateOnce => {
    const request = {
      apiKeyId: 1,
      key,
      fingerprint: `body of ${name}`,
      now: Date.now(),
      expiresAt: Date.now() + 60_000,
    };
    return { pet: { name, categoryId: 1 }, request, lockId: advisoryLockId(request) };
  };

  it('answers the idempotent creates of one turn in one statement, each with its own outcome', async () => {
    await openPool();
    const createOnce = groupedCreatesOnce(pool);
    await createOnce(once('known'));
    // Another instance processing key "held" right now: its transaction holds the key's lock.
    const elsewhere = await pool.connect();
    await elsewhere.query('begin');
    await elsewhere.query('select pg_advisory_xact_lock($1)', [once('held').lockId]);
    acquired = 0;

    const [fresh, known, held] = await inOneTurn(
      () => createOnce(once('fresh', 'Tom')),
      () => createOnce(once('known')),
      () => createOnce(once('held')),
    );
    await elsewhere.query('rollback');
    elsewhere.release();

    expect(acquired).toBe(1);
    expect(fresh).toMatchObject({ outcome: 'created', created_id: '2', created_name: 'Tom' });
    expect(known).toMatchObject({
      outcome: 'known',
      known_fingerprint: 'body of Rex',
      known_body: '{"id":1,"name":"Rex","categoryId":1}',
    });
    expect(held).toMatchObject({ outcome: 'in_flight', created_id: null });
    expect((await stored()).map((row) => row.name)).toEqual(['Rex', 'Tom']);
  });

  it('makes two idempotent creates of one key in one group one create and its replay', async () => {
    await openPool();
    const createOnce = groupedCreatesOnce(pool);

    const [first, second] = await Promise.all([
      createOnce(once('twice')),
      createOnce(once('twice')),
    ]);

    expect(first).toMatchObject({ outcome: 'created', created_id: '1' });
    expect(second).toMatchObject({
      outcome: 'known',
      known_body: '{"id":1,"name":"Rex","categoryId":1}',
    });
    expect(await stored()).toEqual([{ id: '1', name: 'Rex' }]);
  });

  it("sends again one at a time an idempotent group refused for one create's data", async () => {
    await openPool();
    const groups: number[] = [];
    const createOnce = groupedCreatesOnce(pool, (size) => groups.push(size));

    const [rex, nul] = await Promise.allSettled([
      createOnce(once('rex')),
      createOnce(once('nul', 'a\u0000b')),
    ]);

    expect(rex).toMatchObject({ status: 'fulfilled', value: { outcome: 'created' } });
    expect(nul).toMatchObject({ status: 'rejected', reason: { code: '22021' } });
    expect(groups).toEqual([1]);
    expect((await stored()).map((row) => row.name)).toEqual(['Rex']);
  });
});
