import { randomUUID } from 'node:crypto';
import type { Pet } from '@petstore/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/storage/index.js';
import {
  createMemoryRateLimiter,
  startTestServer,
  type TestServer,
  type TestServerOptions,
} from '../../src/testing/index.js';
import { expectApiHeaders, expectError } from '../support/contract.js';
import { authorized } from '../support/requests.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';

/** Each backend, as startTestServer runs on it. */
const backends = [
  { name: 'SQLite', database: async () => ({ options: {}, drop: async () => {} }) },
  {
    name: 'PostgreSQL',
    database: async () => {
      const db: TemporaryPostgresDatabase = await createTemporaryPostgresDatabase();
      return { options: { databaseUrl: db.url }, drop: () => db.drop() };
    },
  },
];

describe.each(backends)('createPet with an Idempotency-Key on $name', (backend) => {
  let server: TestServer;
  let key: string;
  let drop: () => Promise<void>;

  async function start(options: TestServerOptions = {}) {
    const database = await backend.database();
    drop = database.drop;
    server = await startTestServer({ ...database.options, ...options });
    key = await server.createKey('pro');
  }
  afterEach(async () => {
    await server.close();
    await drop();
  });

  const create = (body: unknown, idempotencyKey?: string, apiKey = key) =>
    fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: authorized(apiKey, {
        'Content-Type': 'application/json',
        ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }),
      }),
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const stored = async () => server.storage.pets.list({ limit: 100 });

  describe('on a running server', () => {
    beforeEach(() => start());

    it('replays the first 201 for a retry with the same key and body: same id, nothing created', async () => {
      const idempotencyKey = `"${randomUUID()}"`;
      const first = await create({ name: 'Rex', categoryId: 1 }, idempotencyKey);
      expect(first.status).toBe(201);
      expect(first.headers.get('Idempotent-Replayed')).toBeNull();
      const pet = (await first.json()) as Pet;

      const retry = await create({ name: 'Rex', categoryId: 1 }, idempotencyKey);
      expectApiHeaders(retry);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
      expect(await retry.json()).toEqual(pet);
      expect(await stored()).toEqual([pet]);
    });

    it('takes the quoted and the bare key as one key, and a body in another key order as the same', async () => {
      const id = randomUUID();
      const first = (await (await create({ name: 'Rex', categoryId: 1 }, `"${id}"`)).json()) as Pet;
      const retry = await create('{ "categoryId": 1,  "name": "Rex" }', id);
      expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
      expect(await retry.json()).toEqual(first);
    });

    it('answers 422 for the same key with another body, and creates nothing', async () => {
      const idempotencyKey = randomUUID();
      await create({ name: 'Rex', categoryId: 1 }, idempotencyKey);
      const response = await create({ name: 'Tom', categoryId: 1 }, idempotencyKey);
      expectApiHeaders(response);
      const error = await expectError(response, 422, 'idempotency_key_reused');
      expect(error.message).toBe(
        'This Idempotency-Key was already used with a different request body.',
      );
      expect(await stored()).toHaveLength(1);
    });

    it('answers 400 for a malformed key, and creates nothing', async () => {
      for (const bad of ['"unterminated', 'has space', '"a"b"', 'x'.repeat(256), '']) {
        const response = await create({ name: 'Rex', categoryId: 1 }, bad);
        const error = await expectError(response, 400, 'invalid_request');
        expect(error.message).toMatch(/^request\/headers\/idempotency-key /);
      }
      expect(await stored()).toEqual([]);
    });

    it('leaves a key unused when the request is refused before creating: it can be retried', async () => {
      const idempotencyKey = randomUUID();
      await expectError(await create({ name: '' }, idempotencyKey), 400, 'invalid_request');
      const fixed = await create({ name: 'Rex', categoryId: 1 }, idempotencyKey);
      expect(fixed.status).toBe(201);
      expect(fixed.headers.get('Idempotent-Replayed')).toBeNull();
    });

    it('scopes a key to its API key: another API key with the same key creates its own pet', async () => {
      const idempotencyKey = randomUUID();
      const other = await server.createKey('pro');
      const mine = (await (
        await create({ name: 'Rex', categoryId: 1 }, idempotencyKey)
      ).json()) as Pet;
      const theirs = await create({ name: 'Rex', categoryId: 1 }, idempotencyKey, other);
      expect(theirs.headers.get('Idempotent-Replayed')).toBeNull();
      expect(((await theirs.json()) as Pet).id).not.toBe(mine.id);
    });

    it('forgets a key after IDEMPOTENCY_KEY_TTL_SECONDS (24 h by default)', async () => {
      const idempotencyKey = randomUUID();
      const first = (await (
        await create({ name: 'Rex', categoryId: 1 }, idempotencyKey)
      ).json()) as Pet;
      server.clock.advance(86_400_000);
      expect(
        (await create({ name: 'Rex', categoryId: 1 }, idempotencyKey)).headers.get(
          'Idempotent-Replayed',
        ),
      ).toBe('true');
      server.clock.advance(1);
      const later = await create({ name: 'Rex', categoryId: 1 }, idempotencyKey);
      expect(later.headers.get('Idempotent-Replayed')).toBeNull();
      expect(((await later.json()) as Pet).id).not.toBe(first.id);
    });

    it('creates a pet for every request without a key, as in 1.0', async () => {
      await create({ name: 'Rex', categoryId: 1 });
      await create({ name: 'Rex', categoryId: 1 });
      expect(await stored()).toHaveLength(2);
    });
  });

  it('answers 409 with Retry-After while the first request with the key is in flight', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered: () => void = () => {};
    const inside = new Promise<void>((resolve) => (entered = resolve));
    await start({
      decorateStorage: (storage): Storage => ({
        ...storage,
        pets: {
          ...storage.pets,
          createIdempotent: async (pet, request) => {
            entered();
            await held;
            return storage.pets.createIdempotent(pet, request);
          },
        },
      }),
    });
    const idempotencyKey = randomUUID();
    const first = create({ name: 'Rex', categoryId: 1 }, idempotencyKey);
    await inside;
    const second = await create({ name: 'Rex', categoryId: 1 }, idempotencyKey);
    expectApiHeaders(second);
    await expectError(second, 409, 'idempotency_key_in_use');
    expect(second.headers.get('Retry-After')).toBe('1');
    release();
    expect((await first).status).toBe(201);
    expect(await stored()).toHaveLength(1);
  });

  it('counts replays and conflicts against the rate limit like any request', async () => {
    await start({ limiter: (clock) => createMemoryRateLimiter({ clock }) });
    const idempotencyKey = randomUUID();
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const response = await create({ name: 'Rex', categoryId: 1 }, idempotencyKey);
      remaining.push(response.headers.get('X-RateLimit-Remaining'));
    }
    expect(remaining).toEqual(['299', '298', '297']);
  });
});
