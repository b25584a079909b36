import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pet } from '@petstore/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { generateApiKey } from '../../src/auth/api-key.js';
import { createLogger } from '../../src/logger.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/store.js';
import { createPermissiveLimiter, createTestClock } from '../../src/testing/index.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../storage/temporary-postgres-database.js';

/**
 * The scale story beyond one machine (DESIGN.md "Scale"): server instances keep no state of
 * their own, so any number of them can share one PostgreSQL database behind a load balancer.
 * Two real servers on loopback, each with its own connection pool, stand in for two machines.
 */
interface Instance {
  /** `http://127.0.0.1:PORT` */
  url: string;
  storage: Storage;
  close(): Promise<void>;
}

async function startInstance(databaseUrl: string): Promise<Instance> {
  const clock = createTestClock();
  const storage = await openStorage(databaseUrl, { clock });
  const limiter = createPermissiveLimiter(clock);
  const app = createApp({
    storage,
    limiter,
    clock,
    logger: createLogger('silent'),
    config: { trustProxy: false, validateResponses: true },
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    listening.once('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await app.warmUp(url);
  return {
    url,
    storage,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await limiter.close();
      await storage.close();
    },
  };
}

/** Stores a new active key through `storage` (as the keys CLI does) and returns the raw key. */
async function createKey(storage: Storage): Promise<{ raw: string; id: number }> {
  const key = generateApiKey();
  const record = await storage.keys.create({
    hash: key.hash,
    displayPrefix: key.displayPrefix,
    name: 'two instances',
    plan: 'pro',
    perMinute: 300,
    perDay: 10_000,
  });
  return { raw: key.raw, id: record.id };
}

describe('two server instances on one PostgreSQL database', () => {
  let database: TemporaryPostgresDatabase;
  let one: Instance;
  let two: Instance;
  let apiKey: string;

  const call = (instance: Instance, path: string, init: RequestInit = {}, key = apiKey) =>
    fetch(new URL(path, instance.url), {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    });

  beforeAll(async () => {
    database = await createTemporaryPostgresDatabase();
    // Started together, as a deployment would: both run the migrations at once.
    [one, two] = await Promise.all([startInstance(database.url), startInstance(database.url)]);
    apiKey = (await createKey(one.storage)).raw;
  });

  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await database?.drop();
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

    for (const instance of [one, two]) {
      const response = await call(instance, '/v1/pets?limit=1', {}, key.raw);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'unauthorized', status: 401 });
    }
  });
});
