import { describe, expect, it } from 'vitest';
import { RetryBudgetExceededError } from '../../src/index.js';
import { clientOf, limitedServer } from './support.js';

/** Records the status of every response the server sent. */
function recordingFetch(statuses: number[]) {
  return async (request: Request) => {
    const response = await fetch(request);
    statuses.push(response.status);
    return response;
  };
}

describe('rate limiting against the real server', () => {
  it('waits the Retry-After of a real 429, then succeeds', async () => {
    const server = await limitedServer();
    const key = await server.createKey('enterprise', { perMinute: 2, perDay: 100 });
    const statuses: number[] = [];
    const { client, sleeps } = clientOf(server, key, { fetch: recordingFetch(statuses) });
    await client.listPets();
    await client.listPets();
    server.clock.advance(59_000); // one second before the minute window resets

    const { data, rateLimit } = await client.listPets();

    expect(statuses).toEqual([200, 200, 429, 200]);
    expect(sleeps).toEqual([1000]); // Retry-After: 1
    expect(data).toEqual([]);
    expect(rateLimit).toMatchObject({
      limit: 2,
      remaining: 1,
      reset: new Date('2030-01-01T00:02:00Z'),
    });
  });

  it('re-sends a POST refused with 429 and creates the pet exactly once', async () => {
    const server = await limitedServer();
    const key = await server.createKey('enterprise', { perMinute: 1, perDay: 100 });
    const statuses: number[] = [];
    const { client } = clientOf(server, key, { fetch: recordingFetch(statuses) });
    await client.listPets();

    const { data } = await client.createPet({ name: 'Rex', categoryId: 1 });

    expect(statuses).toEqual([200, 429, 201]);
    expect(data).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
    expect(await server.storage.pets.list({ limit: 10 })).toHaveLength(1);
  });

  it('fails fast with the time to retry when a banned key gets a Retry-After beyond the budget', async () => {
    const server = await limitedServer(2);
    const key = await server.createKey('enterprise', { perMinute: 1, perDay: 100 });
    const raw = clientOf(server, key, { retry: false }).client;
    await raw.listPets();
    expect((await raw.listPets()).error?.code).toBe('rate_limited');
    expect((await raw.listPets()).error?.code).toBe('rate_limited'); // second strike: banned

    const { client, sleeps } = clientOf(server, key, { retry: { budgetMs: 60_000 } });
    const error = await client.listPets().catch((e: unknown) => e);

    expect(sleeps).toEqual([]);
    expect(error).toBeInstanceOf(RetryBudgetExceededError);
    expect(error).toMatchObject({
      attempts: 1,
      reason: 'time',
      status: 429,
      body: { code: 'key_banned', status: 429 },
      retryAt: new Date(server.clock.now() + 900_000),
    });
  });

  it('throttles proactively: holds the request until the reset instead of collecting a 429', async () => {
    const server = await limitedServer();
    const key = await server.createKey('enterprise', { perMinute: 2, perDay: 100 });
    const statuses: number[] = [];
    const { client, sleeps } = clientOf(server, key, {
      throttle: true,
      fetch: recordingFetch(statuses),
    });
    server.clock.advance(30_000);
    await client.listPets();
    const second = await client.listPets();
    expect(second.rateLimit?.remaining).toBe(0);

    await client.listPets();

    expect(statuses).toEqual([200, 200, 200]);
    expect(sleeps).toEqual([30_000]); // from 00:00:30 to the reset at 00:01:00
  });

  it('exposes both windows of RateLimit-Policy and RateLimit, agreeing with X-RateLimit-*', async () => {
    const server = await limitedServer();
    const key = await server.createKey('enterprise', { perMinute: 5, perDay: 7 });
    const { client } = clientOf(server, key);
    server.clock.advance(30_000);
    await client.listPets();
    await client.listPets();

    const { rateLimit } = await client.listPets();

    expect(rateLimit).toEqual({
      limit: 5,
      remaining: 2,
      reset: new Date('2030-01-01T00:01:00Z'),
      windows: [
        {
          policy: 'minute',
          quota: 5,
          windowSeconds: 60,
          remaining: 2,
          reset: new Date('2030-01-01T00:01:00Z'),
        },
        {
          policy: 'day',
          quota: 7,
          windowSeconds: 86_400,
          remaining: 4,
          reset: new Date('2030-01-02T00:00:00Z'),
        },
      ],
    });
  });

  it('throttles until the day resets when both windows are used up (X-RateLimit-* name the minute)', async () => {
    const server = await limitedServer();
    const key = await server.createKey('enterprise', { perMinute: 2, perDay: 2 });
    const statuses: number[] = [];
    const { client, sleeps } = clientOf(server, key, {
      throttle: true,
      retry: { budgetMs: 86_400_000 },
      fetch: recordingFetch(statuses),
    });
    server.clock.advance(30_000);
    await client.listPets();
    const second = await client.listPets();
    expect(second.rateLimit?.reset).toEqual(new Date('2030-01-01T00:01:00Z'));

    const third = await client.listPets();

    expect(sleeps).toEqual([86_370_000]); // from 00:00:30 to midnight
    expect(statuses).toEqual([200, 200, 200]);
    expect(third.rateLimit?.windows.map((window) => window.remaining)).toEqual([1, 1]);
  });
});
