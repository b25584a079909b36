import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  createPetstoreClient,
  NetworkError,
  type PetstoreClient,
  RetryBudgetExceededError,
  TimeoutError,
} from '../../src/index.js';
import {
  clientOf,
  limitedServer,
  limitEndsWhen,
  realServer,
  stallFirst,
  UNKNOWN_KEY,
} from './support.js';

/** Every way an error can be shown: message, stack, JSON, and Node's inspection (causes included). */
function everyRendering(error: unknown): string {
  return [
    String(error),
    (error as Error).stack,
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
  ].join('\n');
}

describe('failures against the real server', () => {
  it('throws TimeoutError when the server does not answer within timeoutMs', async () => {
    const stall = stallFirst('list');
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
    const stall = stallFirst('list');
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
    const stall = stallFirst('list');
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

  it.each([
    {
      what: 'a POST without an Idempotency-Key is sent once and throws NetworkError',
      send: (client: PetstoreClient) =>
        client.raw.POST('/pets', { body: { name: 'Rex', categoryId: 1 } }),
      attempts: 1,
      thrown: { name: 'NetworkError', message: 'POST /v1/pets failed before a response arrived' },
    },
    {
      what: 'createPet (keyed) is retried, then gives up with the NetworkError as cause',
      send: (client: PetstoreClient) => client.createPet({ name: 'Rex', categoryId: 1 }),
      attempts: 4,
      thrown: {
        name: 'RetryBudgetExceededError',
        message:
          'POST /v1/pets gave up after 4 attempt(s) (last failure: POST /v1/pets failed before a response arrived)',
        cause: expect.any(NetworkError),
      },
    },
  ])('when nothing listens, $what, without the key', async ({ send, attempts, thrown }) => {
    const server = await realServer();
    const key = await server.createKey('free');
    await server.close();
    let sent = 0;
    const { client } = clientOf(server, key, {
      fetch: (request) => {
        sent++;
        return fetch(request);
      },
    });
    const error = await send(client).catch((e: unknown) => e);
    expect(error).toMatchObject(thrown);
    expect(sent).toBe(attempts);
    expect(everyRendering(error)).not.toContain(key);
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
