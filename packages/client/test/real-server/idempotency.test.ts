import { describe, expect, it } from 'vitest';
import type { PetstoreClientOptions, RetryEvent } from '../../src/index.js';
import { type Fault, faultyProxy } from './faulty-proxy.js';
import { clientOf, limitEndsWhen, realServer, stallFirst } from './support.js';

// Safe create retries against the real server: every createPet carries an Idempotency-Key, so
// an answer lost after the server committed is retried and replayed, never created twice.

const REX = { name: 'Rex', categoryId: 1, status: 'available' } as const;
const STORED_REX = { id: 1, ...REX };
const TIME_LIMIT = 5000;

/** A recording fetch: the status of every answer the client received. */
function recording() {
  const statuses: number[] = [];
  const fetch = async (request: Request) => {
    const response = await globalThis.fetch(request);
    statuses.push(response.status);
    return response;
  };
  return { statuses, fetch };
}

describe('createPet retries made safe by an Idempotency-Key', () => {
  it.each<{
    fault: Fault;
    lost: string;
    options: (faulted: Promise<void>) => Partial<PetstoreClientOptions>;
  }>([
    { fault: 'drop', lost: 'the connection closes before the answer', options: () => ({}) },
    { fault: 'bad-gateway', lost: 'a gateway answers 502 instead', options: () => ({}) },
    {
      fault: 'hold',
      lost: 'the answer is held past the time limit',
      options: (faulted) => ({ timeoutMs: TIME_LIMIT, sleep: limitEndsWhen(faulted, TIME_LIMIT) }),
    },
  ])('creates exactly one pet when the server committed and $lost', async ({ fault, options }) => {
    const server = await realServer();
    const proxy = await faultyProxy(server.url, fault);
    const { client } = clientOf(server, await server.createKey('free'), {
      baseUrl: proxy.baseUrl,
      ...options(proxy.faulted),
    });

    const created = await client.createPet(REX);

    expect(created.data).toEqual(STORED_REX);
    expect(created.replayed).toBe(true);
    const sentKey = `"${created.idempotencyKey}"`;
    expect(proxy.exchanges).toEqual([
      { idempotencyKey: sentKey, status: 201, replayed: false, delivered: false },
      { idempotencyKey: sentKey, status: 201, replayed: true, delivered: true },
    ]);
    expect(await server.storage.pets.list({ limit: 10 })).toEqual([STORED_REX]);
  });

  it('without an Idempotency-Key, the raw POST whose answer was lost is not re-sent', async () => {
    const server = await realServer();
    const proxy = await faultyProxy(server.url, 'bad-gateway');
    const { client } = clientOf(server, await server.createKey('free'), {
      baseUrl: proxy.baseUrl,
    });

    const { response } = await client.raw.POST('/pets', { body: REX });

    expect(response.status).toBe(502);
    expect(proxy.exchanges).toHaveLength(1);
    expect(await server.storage.pets.list({ limit: 10 })).toEqual([STORED_REX]);
  });

  it('waits out 409 idempotency_key_in_use while the first attempt is still in the store, then gets its replay', async () => {
    const stall = stallFirst('createIdempotent');
    const server = await realServer({ decorateStorage: stall.decorateStorage });
    stall.arm();
    const retries: RetryEvent[] = [];
    const { statuses, fetch } = recording();
    const { client } = clientOf(server, await server.createKey('free'), {
      fetch,
      timeoutMs: TIME_LIMIT,
      // The first attempt times out while the server holds it in the store. The wait the
      // 409's Retry-After asks for is when the first attempt gets to finish.
      sleep: limitEndsWhen(stall.arrived, TIME_LIMIT, async (ms) => {
        if (ms !== 1000) return;
        stall.release();
        await stall.finished;
      }),
      retry: { onRetry: (event) => retries.push(event) },
    });

    const created = await client.createPet(REX);

    expect(retries.map(({ waitFrom, status, delayMs }) => ({ waitFrom, status, delayMs }))).toEqual(
      [
        { waitFrom: 'backoff', status: undefined, delayMs: 250 },
        { waitFrom: 'retry-after', status: 409, delayMs: 1000 },
      ],
    );
    expect(statuses).toEqual([409, 201]);
    expect(created).toMatchObject({ data: STORED_REX, replayed: true });
    expect(await server.storage.pets.list({ limit: 10 })).toEqual([STORED_REX]);
  });

  it('replays the create when called again with the same idempotencyKey and body', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));
    const idempotencyKey = '8e03978e-40d5-43e8-bc93-6894a57f9324';

    const first = await client.createPet(REX, { idempotencyKey });
    const again = await client.createPet(
      { status: 'available', categoryId: 1, name: 'Rex' },
      {
        idempotencyKey,
      },
    );

    expect(first).toMatchObject({ data: STORED_REX, replayed: false, idempotencyKey });
    expect(again).toMatchObject({ data: STORED_REX, replayed: true, idempotencyKey });
    expect(await server.storage.pets.list({ limit: 10 })).toHaveLength(1);
  });

  it('returns 422 idempotency_key_reused for the same key with another body, without a retry', async () => {
    const server = await realServer();
    const { statuses, fetch } = recording();
    const { client } = clientOf(server, await server.createKey('free'), { fetch });
    const idempotencyKey = 'order-4711';
    await client.createPet(REX, { idempotencyKey });

    const other = await client.createPet({ name: 'Tom', categoryId: 2 }, { idempotencyKey });

    expect(other.error).toEqual({
      code: 'idempotency_key_reused',
      message: expect.any(String),
      status: 422,
    });
    expect(statuses).toEqual([201, 422]);
    expect(await server.storage.pets.list({ limit: 10 })).toEqual([STORED_REX]);
  });

  it('sends a fresh key for each call, so two calls with one body create two pets', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));

    const one = await client.createPet(REX);
    const two = await client.createPet(REX);

    expect(one.idempotencyKey).not.toBe(two.idempotencyKey);
    expect([one.data?.id, two.data?.id]).toEqual([1, 2]);
  });
});
