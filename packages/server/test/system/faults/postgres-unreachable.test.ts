import type { Pet } from '@petstore/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryRateLimiter,
  startTestServer,
  type TestServer,
} from '../../../src/testing/index.js';
import { authorized, createPet, get, postPet } from '../../support/requests.js';
import { expectNotReadyButAlive, expectStoreUnavailable } from '../../support/store-unavailable.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import {
  createTemporaryPostgresDatabase,
  TEST_DATABASE_URL,
  type TemporaryPostgresDatabase,
} from '../../support/temporary-postgres-database.js';

// The server reaches its own throw-away database through a proxy the test can cut, so
// PostgreSQL itself keeps running for every other test.
let database: TemporaryPostgresDatabase;
let proxy: TcpProxy;
let server: TestServer;
let key: string;
let before: Pet;

beforeAll(async () => {
  database = await createTemporaryPostgresDatabase();
  const postgres = new URL(TEST_DATABASE_URL);
  proxy = await startTcpProxy({ host: postgres.hostname, port: Number(postgres.port || 5432) });
  const throughProxy = new URL(database.url);
  throughProxy.host = `127.0.0.1:${proxy.port}`;
  server = await startTestServer({
    databaseUrl: throughProxy.toString(),
    limiter: (clock) => createMemoryRateLimiter({ clock }),
  });
  key = await server.createKey('pro');
  before = await createPet(server, key, { name: 'Before the outage', categoryId: 1 });
});

afterAll(async () => {
  await proxy?.restore();
  await server?.close();
  await proxy?.close();
  await database?.drop();
});

const idempotent = (idempotencyKey: string) =>
  fetch(`${server.baseUrl}/pets`, {
    method: 'POST',
    headers: authorized(key, {
      'Content-Type': 'application/json',
      'Idempotency-Key': `"${idempotencyKey}"`,
    }),
    body: JSON.stringify({ name: 'Retried', categoryId: 3 }),
  });

describe('PostgreSQL unreachable (the proxy to it cut), then back', () => {
  it('answers 503 service_unavailable with Retry-After and the rate-limit headers, fails readiness but not liveness, and recovers without a restart', async () => {
    await proxy.cut();

    const whileCut: [string, () => Promise<Response>][] = [
      ['createPet', () => postPet(server, key, { name: 'During the outage', categoryId: 2 })],
      ['createPet with an Idempotency-Key', () => idempotent('outage-1')],
      ['listPets', () => get(server, key, '/v1/pets')],
      ['getPet', () => get(server, key, `/v1/pets/${before.id}`)],
    ];
    for (const [operation, send] of whileCut) {
      const response = await send();
      expect(response.status, operation).toBe(503);
      await expectStoreUnavailable(response);
    }
    await expectNotReadyButAlive(server.url);

    await proxy.restore();

    const readyAgain = await fetch(`${server.url}/readyz`);
    expect(readyAgain.status).toBe(200);
    expect(await readyAgain.json()).toMatchObject({ status: 'ready' });
    const after = await createPet(server, key, { name: 'After the outage', categoryId: 4 });
    // The key refused during the outage was not used up: its create happens now, once.
    const retried = await idempotent('outage-1');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBeNull();
    const retriedPet = (await retried.json()) as Pet;
    const got = await get(server, key, `/v1/pets/${before.id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(before);
    // Nothing of the refused creates was written.
    const list = await get(server, key, '/v1/pets');
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([before, after, retriedPet]);
  });
});
