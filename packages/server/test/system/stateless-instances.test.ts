import { randomUUID } from 'node:crypto';
import type { Pet } from '@petstore/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { issueApiKey } from '../../src/keys/index.js';
import { createLogger } from '../../src/logger/index.js';
import { createRedisRateLimiter } from '../../src/rate-limit/index.js';
import { startServer } from '../../src/server/index.js';
import type { Storage } from '../../src/storage/index.js';
import { createTestClock, type TestClock } from '../../src/testing/index.js';
import { deleteKeys, redisUrl, uniquePrefix } from '../rate-limit/support.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';

/**
 * The scale story beyond one machine (docs/storage-and-scale.md): server instances keep no state of
 * their own, so any number of them behind a load balancer share one PostgreSQL database
 * (pets, keys) and one Redis (rate limits, bans). Two real servers on loopback, each with its
 * own connection pool and Redis connection, stand in for two machines; they read one clock,
 * as machines read one wall-clock time.
 */
interface Instance {
  /** `http://127.0.0.1:PORT` */
  url: string;
  storage: Storage;
  close(): Promise<void>;
}

async function startInstance(
  databaseUrl: string,
  clock: TestClock,
  keyPrefix: string,
): Promise<Instance> {
  const logger = createLogger('silent');
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', DATABASE_URL: databaseUrl });
  const limiter = await createRedisRateLimiter({ url: redisUrl, clock, keyPrefix, logger });
  // startServer opens (and closes) its own pool from the URL, as main.ts does.
  const running = await startServer({ config, clock, logger, limiter });
  return {
    url: running.url,
    storage: running.storage,
    async close() {
      await running.close({ drainMs: 0, timeoutMs: 0 });
      await limiter.close();
    },
  };
}

/** Issues a new active key through `storage` (as the keys CLI does) and returns the raw key. */
async function createKey(
  storage: Storage,
  plan: 'free' | 'pro' = 'pro',
): Promise<{ raw: string; id: number }> {
  const { raw, record } = await issueApiKey(storage.keys, { plan, name: 'two instances' });
  return { raw, id: record.id };
}

describe('two server instances on one PostgreSQL database and one Redis', () => {
  const keyPrefix = uniquePrefix();
  let database: TemporaryPostgresDatabase;
  let one: Instance;
  let two: Instance;
  let apiKey: string;

  const call = (
    instance: Instance,
    path: string,
    init: RequestInit & { headers?: Record<string, string> } = {},
    key = apiKey,
  ) =>
    fetch(new URL(path, instance.url), {
      ...init,
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        ...init.headers,
      },
    });
  /** A create with an `Idempotency-Key`. */
  const createWithKey = (instance: Instance, idempotencyKey: string, pet: object) =>
    call(instance, '/v1/pets', {
      method: 'POST',
      headers: { 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(pet),
    });

  beforeAll(async () => {
    database = await createTemporaryPostgresDatabase();
    // Started together, as a deployment would: both run the migrations at once.
    const clock = createTestClock();
    [one, two] = await Promise.all([
      startInstance(database.url, clock, keyPrefix),
      startInstance(database.url, clock, keyPrefix),
    ]);
    apiKey = (await createKey(one.storage)).raw;
  });

  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await database?.drop();
    await deleteKeys(redisUrl, keyPrefix);
  });

  it('lists and fetches through one instance a pet created through the other', async () => {
    const created = await call(one, '/v1/pets', {
      method: 'POST',
      body: JSON.stringify({ name: 'Shared Rex', categoryId: 4, status: 'sold' }),
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as Pet;

    const fetched = await call(two, `/v1/pets/${pet.id}`);
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual({
      id: pet.id,
      name: 'Shared Rex',
      categoryId: 4,
      status: 'sold',
    });

    const listed = await call(two, '/v1/pets?status=sold&limit=100');
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([pet]);
  });

  it('follows on one instance the next link the other issued', async () => {
    const pets: Pet[] = [];
    for (const name of ['Page A', 'Page B', 'Page C']) {
      const response = await call(two, '/v1/pets', {
        method: 'POST',
        body: JSON.stringify({ name, categoryId: 9, status: 'pending' }),
      });
      pets.push((await response.json()) as Pet);
    }

    const first = await call(one, '/v1/pets?status=pending&limit=2');
    expect(await first.json()).toEqual(pets.slice(0, 2));
    const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();

    const second = await call(two, next as string);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(pets.slice(2));
    expect(second.headers.get('link')).toBeNull();
  });

  it('accepts on one instance a key created on the other, and neither accepts it once revoked', async () => {
    const key = await createKey(two.storage);

    expect((await call(one, '/v1/pets?limit=1', {}, key.raw)).status).toBe(200);
    expect((await call(two, '/v1/pets?limit=1', {}, key.raw)).status).toBe(200);

    expect(await one.storage.keys.revoke(key.id)).toBe(true);

    // The instance that revoked forgets its cached lookup at once.
    const here = await call(one, '/v1/pets?limit=1', {}, key.raw);
    expect(here.status).toBe(401);
    expect(await here.json()).toMatchObject({ code: 'unauthorized', status: 401 });
    // The other learns it by PostgreSQL NOTIFY, delivered at the revocation's commit: within a
    // few milliseconds, so poll with a deadline rather than sleep.
    const deadline = Date.now() + 5_000;
    let there = await call(two, '/v1/pets?limit=1', {}, key.raw);
    while (there.status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      there = await call(two, '/v1/pets?limit=1', {}, key.raw);
    }
    expect(there.status).toBe(401);
  });

  it('replays on one instance a create made with an Idempotency-Key on the other', async () => {
    const idempotencyKey = `"${randomUUID()}"`;
    const create = (instance: Instance) =>
      createWithKey(instance, idempotencyKey, { name: 'Once', categoryId: 9 });
    const first = await create(one);
    expect(first.status).toBe(201);
    const retry = await create(two);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retry.json()).toEqual(await first.json());
  });

  it('creates exactly one pet from one key sent 20 times at once, half to each instance', async () => {
    const idempotencyKey = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createWithKey(i % 2 === 0 ? one : two, idempotencyKey, { name: 'Raced', categoryId: 10 }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    // Each answer is the create, its replay, or 409 while another instance held the key.
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const created = answers.filter(
      (answer) => answer.status === 201 && answer.headers.get('Idempotent-Replayed') === null,
    );
    expect(created).toHaveLength(1);
    const raced = (await one.storage.pets.list({ limit: 1000 })).filter(
      (pet) => pet.name === 'Raced',
    );
    expect(raced).toHaveLength(1);
  });

  it('enforces one limit across both: 60 of 100 concurrent requests of a Free key pass', async () => {
    const key = await createKey(one.storage, 'free');

    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(i % 2 === 0 ? one : two, '/v1/pets?limit=1', {}, key.raw),
      ),
    );
    await Promise.all(responses.map((response) => response.arrayBuffer()));

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);
  });
});
