import { afterEach, describe, expect, it } from 'vitest';
import type { Quota, Subject } from '../../src/domain.js';
import type { TestClock } from '../../src/testing/index.js';
import {
  type BanPolicy,
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type LimitDecision,
  type RateLimiter,
} from '../../src/rate-limit/index.js';
import {
  addressSubject,
  capturedLogger,
  deleteKeys,
  keySubject,
  nextDay,
  nextMinute,
  rateLimitClock,
  redisUrl,
  uniquePrefix,
  windowAt,
} from './support.js';

const free: Quota = { perMinute: 60, perDay: 1000 };
const pro: Quota = { perMinute: 300, perDay: 10000 };
const business: Quota = { perMinute: 1000, perDay: 100000 };
const noBans: BanPolicy = { threshold: 0, seconds: 1 };

interface Backend {
  name: string;
  open(clock: TestClock, ban?: BanPolicy): Promise<RateLimiter>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const backends: Backend[] = [
  {
    name: 'memory',
    open: async (clock, ban = noBans) => createMemoryRateLimiter({ clock, ban }),
  },
  {
    name: 'redis',
    async open(clock, ban = noBans) {
      const keyPrefix = uniquePrefix();
      const limiter = await createRedisRateLimiter({
        url: redisUrl,
        clock,
        ban,
        keyPrefix,
        logger: capturedLogger().logger,
      });
      cleanups.push(async () => {
        await limiter.close();
        await deleteKeys(redisUrl, keyPrefix);
      });
      return limiter;
    },
  },
];

/** Sends `count` requests one after another; the decisions in order. */
async function sequential(limiter: RateLimiter, subject: Subject, quota: Quota, count: number) {
  const decisions: LimitDecision[] = [];
  for (let i = 0; i < count; i++) decisions.push(await limiter.consume(subject, quota));
  return decisions;
}

const allowedCount = (decisions: LimitDecision[]) => decisions.filter((d) => d.allowed).length;

describe.each(backends)('rate limiter on $name', (backend) => {
  it.each([
    ['free', free],
    ['pro', pro],
    ['business', business],
  ] as const)(
    'allows exactly the %s plan per-minute count, then answers rate_limited',
    async (_plan, quota) => {
      const clock = rateLimitClock();
      const limiter = await backend.open(clock);
      const decisions = await sequential(limiter, keySubject(1), quota, quota.perMinute + 2);
      expect(allowedCount(decisions)).toBe(quota.perMinute);
      const minute = (remaining: number) =>
        windowAt(clock, quota.perMinute, remaining, nextMinute(clock));
      const day = (remaining: number) => windowAt(clock, quota.perDay, remaining, nextDay(clock));
      expect(decisions[0]).toEqual({
        allowed: true,
        window: minute(quota.perMinute - 1),
        windows: { minute: minute(quota.perMinute - 1), day: day(quota.perDay - 1) },
      });
      expect(decisions[quota.perMinute - 1]).toEqual({
        allowed: true,
        window: minute(0),
        windows: { minute: minute(0), day: day(quota.perDay - quota.perMinute) },
      });
      expect(decisions[quota.perMinute]).toEqual({
        allowed: false,
        code: 'rate_limited',
        window: minute(0),
        // The refused request is not counted: the day keeps what it had.
        windows: { minute: minute(0), day: day(quota.perDay - quota.perMinute) },
        retryAfterSeconds: 30,
      });
      // The IETF field's t of the refusing window equals Retry-After.
      expect(decisions[quota.perMinute]?.windows.minute.secondsToReset).toBe(30);
    },
  );

  it('starts a fresh minute window at the next clock minute', async () => {
    const clock = rateLimitClock();
    const limiter = await backend.open(clock);
    await sequential(limiter, keySubject(1), free, 61);
    clock.advance(29_500);
    const refused = await limiter.consume(keySubject(1), free);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(500);
    expect(await limiter.consume(keySubject(1), free)).toEqual({
      allowed: true,
      window: windowAt(clock, 60, 59, nextMinute(clock)),
      windows: {
        minute: windowAt(clock, 60, 59, nextMinute(clock)),
        day: windowAt(clock, 1000, 939, nextDay(clock)),
      },
    });
  });

  it('counts each subject separately', async () => {
    const clock = rateLimitClock();
    const limiter = await backend.open(clock);
    const quota = { perMinute: 2, perDay: 10 };
    await sequential(limiter, keySubject(1), quota, 3);
    expect(await limiter.consume(keySubject(2), quota)).toMatchObject({ allowed: true });
    expect(await limiter.consume(addressSubject('127.0.0.1'), quota)).toMatchObject({
      allowed: true,
    });
  });

  it('lets the day window bind for an enterprise key with a small per-day number', async () => {
    const clock = rateLimitClock();
    const limiter = await backend.open(clock);
    const enterprise = { perMinute: 10, perDay: 3 };
    const decisions = await sequential(limiter, keySubject(9), enterprise, 4);
    const day = (remaining: number) => windowAt(clock, 3, remaining, nextDay(clock));
    expect(decisions.slice(0, 3).map((d) => d.window)).toEqual([day(2), day(1), day(0)]);
    expect(decisions[3]).toEqual({
      allowed: false,
      code: 'rate_limited',
      window: day(0),
      windows: { minute: windowAt(clock, 10, 7, nextMinute(clock)), day: day(0) },
      retryAfterSeconds: 86_400 - 30,
    });
    clock.advance((86_400 - 30) * 1000);
    expect(await limiter.consume(keySubject(9), enterprise)).toMatchObject({
      allowed: true,
      window: { limit: 3, remaining: 2 },
    });
  });

  it('describes the minute window in the headers when both windows have as many left', async () => {
    const clock = rateLimitClock();
    const limiter = await backend.open(clock);
    const [decision] = await sequential(limiter, keySubject(1), { perMinute: 5, perDay: 5 }, 1);
    expect(decision?.window).toEqual(windowAt(clock, 5, 4, nextMinute(clock)));
  });

  it('does not count refused requests against the quota', async () => {
    const clock = rateLimitClock();
    const limiter = await backend.open(clock);
    const quota = { perMinute: 5, perDay: 8 };
    expect(allowedCount(await sequential(limiter, keySubject(1), quota, 10))).toBe(5);
    clock.advance(60_000);
    const decisions = await sequential(limiter, keySubject(1), quota, 4);
    expect(allowedCount(decisions)).toBe(3);
    expect(decisions[3]).toMatchObject({
      code: 'rate_limited',
      window: { limit: 8, remaining: 0, resetSeconds: nextDay(clock) },
    });
  });

  it('allows exactly 60 of 100 concurrent requests of a Free key', async () => {
    const clock = rateLimitClock();
    const limiter = await backend.open(clock, { threshold: 20, seconds: 900 });
    const decisions = await Promise.all(
      Array.from({ length: 100 }, () => limiter.consume(keySubject(1), free)),
    );
    expect(allowedCount(decisions)).toBe(60);
    expect(decisions.filter((d) => !d.allowed && d.code === 'rate_limited')).toHaveLength(40);
  });

  it('bans a key after the threshold of 429 answers within a minute, until the ban ends', async () => {
    const clock = rateLimitClock();
    const limiter = await backend.open(clock, { threshold: 3, seconds: 120 });
    const quota = { perMinute: 2, perDay: 100 };
    const decisions = await sequential(limiter, keySubject(1), quota, 6);
    expect(decisions.map((d) => (d.allowed ? 'ok' : d.code))).toEqual([
      'ok',
      'ok',
      'rate_limited',
      'rate_limited',
      'rate_limited',
      'key_banned',
    ]);
    const banEnd = clock.now() / 1000 + 120;
    expect(decisions[5]).toEqual({
      allowed: false,
      code: 'key_banned',
      window: windowAt(clock, 2, 0, banEnd),
      // While banned, nothing remains of either window.
      windows: {
        minute: windowAt(clock, 2, 0, nextMinute(clock)),
        day: windowAt(clock, 100, 0, nextDay(clock)),
      },
      retryAfterSeconds: 120,
    });
    clock.advance(100_000);
    expect(await limiter.consume(keySubject(1), quota)).toMatchObject({
      code: 'key_banned',
      retryAfterSeconds: 20,
    });
    clock.advance(20_000);
    expect(await limiter.consume(keySubject(1), quota)).toMatchObject({
      allowed: true,
      window: { limit: 2, remaining: 1 },
    });
  });

  it('does not ban a key whose 429 answers are spread over several minutes', async () => {
    const clock = rateLimitClock();
    const limiter = await backend.open(clock, { threshold: 3, seconds: 120 });
    const quota = { perMinute: 1, perDay: 100 };
    await sequential(limiter, keySubject(1), quota, 3);
    clock.advance(60_000);
    const decisions = await sequential(limiter, keySubject(1), quota, 3);
    expect(decisions.map((d) => (d.allowed ? 'ok' : d.code))).toEqual([
      'ok',
      'rate_limited',
      'rate_limited',
    ]);
  });

  it('never bans a client address, only API keys', async () => {
    const clock = rateLimitClock();
    const limiter = await backend.open(clock, { threshold: 1, seconds: 900 });
    const decisions = await sequential(
      limiter,
      addressSubject('192.0.2.1'),
      { perMinute: 1, perDay: 100 },
      5,
    );
    expect(decisions.map((d) => (d.allowed ? 'ok' : d.code))).toEqual([
      'ok',
      'rate_limited',
      'rate_limited',
      'rate_limited',
      'rate_limited',
    ]);
  });
});
