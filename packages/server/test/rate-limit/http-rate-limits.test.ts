import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createTestClock,
  startTestServer,
  type TestClock,
  type TestServer,
} from '@petstore/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { BanPolicy, RateLimiter } from '../../src/rate-limit/index.js';
import { createMemoryRateLimiter } from '../../src/rate-limit/index.js';
import { createRedisRateLimiter } from '../../src/rate-limit/index.js';
import { capturedLogger, deleteKeys, redisUrl, uniquePrefix } from './support.js';

// The test clock starts at 2030-01-01T00:00:00Z: the minute resets 60 s later, the day at
// the next midnight.
const start = Date.UTC(2030, 0, 1) / 1000;
const noBans: BanPolicy = { threshold: 0, seconds: 1 };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Backend {
  name: string;
  open(clock: TestClock, ban: BanPolicy, keyPrefix: string): Promise<RateLimiter>;
}

const backends: Backend[] = [
  { name: 'memory', open: async (clock, ban) => createMemoryRateLimiter({ clock, ban }) },
  {
    name: 'redis',
    open: (clock, ban, keyPrefix) =>
      createRedisRateLimiter({
        url: redisUrl,
        clock,
        ban,
        keyPrefix,
        logger: capturedLogger().logger,
      }),
  },
];

/** A server on `backend` whose limiter and storage are closed after the test. */
async function serve(
  backend: Backend,
  options: {
    ban?: BanPolicy;
    keyPrefix?: string;
    databaseFile?: string;
    trustProxy?: boolean;
    clock?: TestClock;
  } = {},
): Promise<TestServer> {
  const clock = options.clock ?? createTestClock();
  const keyPrefix = options.keyPrefix ?? uniquePrefix();
  const limiter = await backend.open(clock, options.ban ?? noBans, keyPrefix);
  const server = await startTestServer({
    clock,
    limiter,
    ...(options.databaseFile === undefined ? {} : { databaseFile: options.databaseFile }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
  });
  cleanups.push(async () => {
    await server.close();
    await limiter.close();
    if (backend.name === 'redis') await deleteKeys(redisUrl, keyPrefix);
  });
  return server;
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

function rateLimitHeaders(response: Response) {
  return {
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: response.headers.get('x-ratelimit-reset'),
    retryAfter: response.headers.get('retry-after'),
  };
}

describe.each(backends)('rate limits over HTTP on $name', (backend) => {
  it('answers 200 to exactly 60 of 100 concurrent requests of a Free key and 429 to 40', async () => {
    const server = await serve(backend);
    const key = await server.createKey('free');
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => fetch(`${server.baseUrl}/pets`, { headers: bearer(key) })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    const refused = responses.find((r) => r.status === 429) as Response;
    expect(rateLimitHeaders(refused)).toEqual({
      limit: '60',
      remaining: '0',
      reset: String(start + 60),
      retryAfter: '60',
    });
    expect(await refused.json()).toEqual({
      code: 'rate_limited',
      message: 'Rate limit exceeded.',
      status: 429,
    });
    await Promise.all(responses.map((r) => r.arrayBuffer().catch(() => undefined)));
  });

  it('counts down X-RateLimit-Remaining and says when the window resets', async () => {
    const server = await serve(backend);
    const key = await server.createKey('pro');
    server.clock.advance(15_000);
    const first = await fetch(`${server.baseUrl}/pets`, { headers: bearer(key) });
    const second = await fetch(`${server.baseUrl}/pets`, { headers: bearer(key) });
    expect(first.status).toBe(200);
    expect(rateLimitHeaders(first)).toEqual({
      limit: '300',
      remaining: '299',
      reset: String(start + 60),
      retryAfter: null,
    });
    expect(rateLimitHeaders(second).remaining).toBe('298');
  });

  it('sends the IETF RateLimit fields for both windows, agreeing with X-RateLimit-*', async () => {
    const server = await serve(backend);
    const key = await server.createKey('free');
    server.clock.advance(30_500); // 00:00:30.5 UTC
    const allowed = await fetch(`${server.baseUrl}/pets`, { headers: bearer(key) });
    expect(allowed.headers.get('RateLimit-Policy')).toBe(
      '"minute";q=60;w=60, "day";q=1000;w=86400',
    );
    expect(allowed.headers.get('RateLimit')).toBe('"minute";r=59;t=30, "day";r=999;t=86370');
    // X-RateLimit-Reset is the response's whole Unix second plus the described window's t.
    expect(rateLimitHeaders(allowed).reset).toBe(String(start + 30 + 30));

    for (let i = 0; i < 59; i++) await fetch(`${server.baseUrl}/pets`, { headers: bearer(key) });
    const refused = await fetch(`${server.baseUrl}/pets`, { headers: bearer(key) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('RateLimit')).toBe('"minute";r=0;t=30, "day";r=940;t=86370');
    expect(refused.headers.get('Retry-After')).toBe('30');

    const anonymous = await fetch(`${server.baseUrl}/pets`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('RateLimit-Policy')).toBe(
      '"minute";q=60;w=60, "day";q=1000;w=86400',
    );
  });

  it('does not carry out a refused create: nothing is written', async () => {
    const server = await serve(backend);
    const key = await server.createKey('enterprise', { perMinute: 2, perDay: 100 });
    const create = () =>
      fetch(`${server.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...bearer(key), 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await create()).status);
    expect(statuses).toEqual([201, 201, 429, 429]);
    expect(await server.storage.pets.list({ limit: 100 })).toHaveLength(2);
  });

  it('carries the headers on 401 answers, counting the caller by address', async () => {
    const server = await serve(backend);
    const noKey = await fetch(`${server.baseUrl}/pets`);
    const badKey = await fetch(`${server.baseUrl}/pets`, {
      headers: bearer('psk_notARealKeyAtAll000000000000000000000'),
    });
    expect([noKey.status, badKey.status]).toEqual([401, 401]);
    expect(rateLimitHeaders(noKey)).toEqual({
      limit: '60',
      remaining: '59',
      reset: String(start + 60),
      retryAfter: null,
    });
    expect(rateLimitHeaders(badKey).remaining).toBe('58');
  });

  it('carries the headers on 404 and 405 answers', async () => {
    const server = await serve(backend);
    const key = await server.createKey('business');
    const notFound = await fetch(`${server.baseUrl}/pets/424242`, { headers: bearer(key) });
    const unknownPath = await fetch(`${server.baseUrl}/nowhere`, { headers: bearer(key) });
    const wrongMethod = await fetch(`${server.baseUrl}/pets`, {
      method: 'DELETE',
      headers: bearer(key),
    });
    expect([notFound.status, unknownPath.status, wrongMethod.status]).toEqual([404, 404, 405]);
    expect([notFound, unknownPath, wrongMethod].map((r) => rateLimitHeaders(r))).toEqual([
      { limit: '1000', remaining: '999', reset: String(start + 60), retryAfter: null },
      { limit: '1000', remaining: '998', reset: String(start + 60), retryAfter: null },
      { limit: '1000', remaining: '997', reset: String(start + 60), retryAfter: null },
    ]);
  });

  it('limits callers without a key at the Free plan numbers, per address', async () => {
    const server = await serve(backend);
    const statuses = [];
    for (let i = 0; i < 61; i++) statuses.push((await fetch(`${server.baseUrl}/pets`)).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(60);
    expect(statuses[60]).toBe(429);
  });

  it('tells forwarded client addresses apart only when trust proxy is on', async () => {
    const trusting = await serve(backend, { trustProxy: true });
    const direct = await serve(backend);
    const from = (server: TestServer, address: string) =>
      fetch(`${server.baseUrl}/pets`, { headers: { 'X-Forwarded-For': address } });
    await from(trusting, '192.0.2.1');
    await from(direct, '192.0.2.1');
    expect(rateLimitHeaders(await from(trusting, '192.0.2.2')).remaining).toBe('59');
    expect(rateLimitHeaders(await from(direct, '192.0.2.2')).remaining).toBe('58');
  });

  it('binds on the day window of an enterprise key with a small per-day number', async () => {
    const server = await serve(backend);
    const key = await server.createKey('enterprise', { perMinute: 3, perDay: 3 });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await fetch(`${server.baseUrl}/pets`, { headers: bearer(key) })).status);
      server.clock.advance(60_000);
    }
    const refused = await fetch(`${server.baseUrl}/pets`, { headers: bearer(key) });
    expect([...statuses, refused.status]).toEqual([200, 200, 200, 429]);
    expect(rateLimitHeaders(refused)).toEqual({
      limit: '3',
      remaining: '0',
      reset: String(start + 86_400),
      retryAfter: String(86_400 - 180),
    });
  });

  it('bans a key that keeps calling after 429s, then lets it back when the ban ends', async () => {
    const server = await serve(backend, { ban: { threshold: 3, seconds: 600 } });
    const key = await server.createKey('enterprise', { perMinute: 1, perDay: 100 });
    const call = () => fetch(`${server.baseUrl}/pets`, { headers: bearer(key) });
    const codes = [];
    for (let i = 0; i < 5; i++) {
      const response = await call();
      codes.push(
        response.status === 200 ? 'ok' : ((await response.json()) as { code: string }).code,
      );
    }
    expect(codes).toEqual(['ok', 'rate_limited', 'rate_limited', 'rate_limited', 'key_banned']);

    server.clock.advance(599_000);
    const stillBanned = await call();
    expect(stillBanned.status).toBe(429);
    expect(rateLimitHeaders(stillBanned)).toEqual({
      limit: '1',
      remaining: '0',
      reset: String(start + 600),
      retryAfter: '1',
    });
    expect(await stillBanned.json()).toEqual({
      code: 'key_banned',
      message: 'This API key is temporarily banned.',
      status: 429,
    });
    server.clock.advance(1_000);
    expect((await call()).status).toBe(200);
  });
});

describe('two app instances on one Redis', () => {
  it('share one limit: 60 of 100 concurrent requests of a Free key pass in all', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'petstore-rl-'));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const databaseFile = path.join(folder, 'petstore.db');
    const keyPrefix = uniquePrefix();
    const clock = createTestClock();
    const redis = backends[1] as Backend;
    const a = await serve(redis, { keyPrefix, databaseFile, clock });
    const b = await serve(redis, { keyPrefix, databaseFile, clock });
    const key = await a.createKey('free');
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? a : b).baseUrl}/pets`, { headers: bearer(key) }),
      ),
    );
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  });
});
