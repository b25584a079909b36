import { inspect } from 'node:util';
import type { Storage } from '@petstore/server';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  createPetstoreClient,
  NetworkError,
  RetryBudgetExceededError,
  TimeoutError,
} from '../../src/index.js';
import type { Sleep } from '../../src/time.js';
import { clientOf, limitedServer, realServer, UNKNOWN_KEY } from './support.js';

/** Every way an error can be shown: message, stack, JSON, and Node's inspection (causes included). */
function everyRendering(error: unknown): string {
  return [
    String(error),
    (error as Error).stack,
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
  ].join('\n');
}

/**
 * Storage whose first `pets.list` call after `arm()` is held until `release()`: a real
 * request that reaches the real server and gets no answer. `arrived` resolves when it is
 * held. (Armed after start-up, which warms the validator with a list request.)
 */
function stallFirstList() {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let armed = false;
  const decorateStorage = (storage: Storage): Storage => ({
    keys: storage.keys,
    ping: () => storage.ping(),
    close: () => storage.close(),
    pets: {
      create: (pet) => storage.pets.create(pet),
      get: (id) => storage.pets.get(id),
      list: async (query) => {
        if (armed) {
          armed = false;
          arrive();
          await gate;
        }
        return storage.pets.list(query);
      },
    },
  });
  return {
    decorateStorage,
    arrived,
    release,
    arm: () => {
      armed = true;
    },
  };
}

/**
 * A sleep where the first time limit (ms === limit) ends once the request is held; later
 * time limits never end by themselves (their attempts are answered), other waits end at once.
 */
function limitEndsWhen(held: Promise<void>, limit: number): Sleep {
  let first = true;
  return (ms, signal) => {
    if (ms !== limit) return Promise.resolve();
    const ends = first;
    first = false;
    return new Promise((resolve, reject) => {
      if (ends) void held.then(() => resolve());
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
}

describe('failures against the real server', () => {
  it('throws TimeoutError when the server does not answer within timeoutMs', async () => {
    const stall = stallFirstList();
    const server = await realServer({ decorateStorage: stall.decorateStorage });
    stall.arm();
    const key = await server.createKey('free');
    const { client } = clientOf(server, key, {
      retry: false,
      timeoutMs: 5000,
      sleep: limitEndsWhen(stall.arrived, 5000),
    });
    const error = await client.listPets().catch((e: unknown) => e);
    stall.release();
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('GET /v1/pets timed out after 5000 ms');
    expect(everyRendering(error)).not.toContain(key);
  });

  it('retries a GET that timed out and returns the next answer', async () => {
    const stall = stallFirstList();
    const server = await realServer({ decorateStorage: stall.decorateStorage });
    stall.arm();
    const { client } = clientOf(server, await server.createKey('free'), {
      timeoutMs: 5000,
      sleep: limitEndsWhen(stall.arrived, 5000),
    });
    const { data } = await client.listPets();
    stall.release();
    expect(data).toEqual([]);
  });

  it('throws AbortedError when the caller aborts a request in flight', async () => {
    const stall = stallFirstList();
    const server = await realServer({ decorateStorage: stall.decorateStorage });
    stall.arm();
    const key = await server.createKey('free');
    const { client } = clientOf(server, key);
    const controller = new AbortController();
    void stall.arrived.then(() => controller.abort());
    const error = await client.listPets({}, { signal: controller.signal }).catch((e: unknown) => e);
    stall.release();
    expect(error).toBeInstanceOf(AbortedError);
    expect(everyRendering(error)).not.toContain(key);
  });

  it('throws NetworkError, without the key, when nothing listens, and never re-sends a POST', async () => {
    const server = await realServer();
    const key = await server.createKey('free');
    const baseUrl = server.baseUrl;
    await server.close();
    let sent = 0;
    const { client } = clientOf(server, key, {
      fetch: (request) => {
        sent++;
        return fetch(request);
      },
    });
    const error = await client.createPet({ name: 'Rex', categoryId: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe('POST /v1/pets failed before a response arrived');
    expect(sent).toBe(1);
    expect(everyRendering(error)).not.toContain(key);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('keeps the key out of RetryBudgetExceededError and of 401 results', async () => {
    const server = await limitedServer();
    const key = await server.createKey('enterprise', { perMinute: 1, perDay: 100 });
    const { client } = clientOf(server, key, { retry: { maxAttempts: 1 } });
    await client.listPets();
    const error = await client.listPets().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryBudgetExceededError);
    expect(everyRendering(error)).not.toContain(key);

    const unauthorized = await clientOf(server, UNKNOWN_KEY).client.listPets();
    expect(unauthorized.error?.code).toBe('unauthorized');
    expect(JSON.stringify(unauthorized.error)).not.toContain(UNKNOWN_KEY);
  });

  it('rejects a malformed key without repeating it', () => {
    const malformed = 'psk_secret\nX-Injected: 1';
    const create = () =>
      createPetstoreClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: malformed });
    expect(create).toThrow(TypeError);
    expect(create).toThrow(/not a valid bearer token/);
    try {
      create();
    } catch (error) {
      expect(everyRendering(error)).not.toContain('secret');
    }
  });
});
