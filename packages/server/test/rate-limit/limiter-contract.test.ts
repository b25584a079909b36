import { afterEach, describe, expect, it } from 'vitest';
import type { BanPolicy, LimitDecision, Quota, RateLimiter } from '../../src/rate-limit/limiter.js';
import { createMemoryRateLimiter } from '../../src/rate-limit/memory-backend.js';
import { createRedisRateLimiter } from '../../src/rate-limit/redis-backend.js';
import { capturedLogger, deleteKeys, ManualClock, redisUrl, uniquePrefix } from './support.js';

const free: Quota = { perMinute: 60, perDay: 1000 };
const pro: Quota = { perMinute: 300, perDay: 10000 };
const business: Quota = { perMinute: 1000, perDay: 100000 };
const noBans: BanPolicy = { threshold: 0, seconds: 1 };

interface Backend {
  name: string;
  open(clock: ManualClock, ban?: BanPolicy): Promise<RateLimiter>;
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
async function sequential(limiter: RateLimiter, subject: string, quota: Quota, count: number) {
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
      const clock = new ManualClock();
      const limiter = await backend.open(clock);
      const decisions = await sequential(limiter, 'key:1', quota, quota.perMinute + 2);
      expect(allowedCount(decisions)).toBe(quota.perMinute);
      expect(decisions[0]).toEqual({
        allowed: true,
        window: {
          limit: quota.perMinute,
          remaining: quota.perMinute - 1,
          resetSeconds: clock.nextMinute(),
        },
      });
      expect(decisions[quota.perMinute - 1]).toEqual({
        allowed: true,
        window: { limit: quota.perMinute, remaining: 0, resetSeconds: clock.nextMinute() },
      });
      expect(decisions[quota.perMinute]).toEqual({
        allowed: false,
        code: 'rate_limited',
        window: { limit: quota.perMinute, remaining: 0, resetSeconds: clock.nextMinute() },
        retryAfterSeconds: 30,
      });
    },
  );

  it('starts a fresh minute window at the next clock minute', async () => {
    const clock = new ManualClock();
    const limiter = await backend.open(clock);
    await sequential(limiter, 'key:1', free, 61);
    clock.advance(29.5);
    const refused = await limiter.consume('key:1', free);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(0.5);
    expect(await limiter.consume('key:1', free)).toEqual({
      allowed: true,
      window: { limit: 60, remaining: 59, resetSeconds: clock.nextMinute() },
    });
  });

  it('counts each subject separately', async () => {
    const clock = new ManualClock();
    const limiter = await backend.open(clock);
    const quota = { perMinute: 2, perDay: 10 };
    await sequential(limiter, 'key:1', quota, 3);
    expect(await limiter.consume('key:2', quota)).toMatchObject({ allowed: true });
    expect(await limiter.consume('ip:127.0.0.1', quota)).toMatchObject({ allowed: true });
  });

  it('lets the day window bind for an enterprise key with a small per-day number', async () => {
    const clock = new ManualClock();
    const limiter = await backend.open(clock);
    const enterprise = { perMinute: 10, perDay: 3 };
    const decisions = await sequential(limiter, 'key:9', enterprise, 4);
    expect(decisions.slice(0, 3).map((d) => d.window)).toEqual([
      { limit: 3, remaining: 2, resetSeconds: clock.nextDay() },
      { limit: 3, remaining: 1, resetSeconds: clock.nextDay() },
      { limit: 3, remaining: 0, resetSeconds: clock.nextDay() },
    ]);
    expect(decisions[3]).toEqual({
      allowed: false,
      code: 'rate_limited',
      window: { limit: 3, remaining: 0, resetSeconds: clock.nextDay() },
      retryAfterSeconds: 86_400 - 30,
    });
    clock.advance(86_400 - 30);
    expect(await limiter.consume('key:9', enterprise)).toMatchObject({
      allowed: true,
      window: { limit: 3, remaining: 2 },
    });
  });

  it('describes the minute window in the headers when both windows have as many left', async () => {
    const clock = new ManualClock();
    const limiter = await backend.open(clock);
    const [decision] = await sequential(limiter, 'key:1', { perMinute: 5, perDay: 5 }, 1);
    expect(decision?.window).toEqual({ limit: 5, remaining: 4, resetSeconds: clock.nextMinute() });
  });

  it('does not count refused requests against the quota', async () => {
    const clock = new ManualClock();
    const limiter = await backend.open(clock);
    const quota = { perMinute: 5, perDay: 8 };
    expect(allowedCount(await sequential(limiter, 'key:1', quota, 10))).toBe(5);
    clock.advance(60);
    const decisions = await sequential(limiter, 'key:1', quota, 4);
    expect(allowedCount(decisions)).toBe(3);
    expect(decisions[3]).toMatchObject({
      code: 'rate_limited',
      window: { limit: 8, remaining: 0, resetSeconds: clock.nextDay() },
    });
  });

  it('allows exactly 60 of 100 concurrent requests of a Free key', async () => {
    const clock = new ManualClock();
    const limiter = await backend.open(clock, { threshold: 20, seconds: 900 });
    const decisions = await Promise.all(
      Array.from({ length: 100 }, () => limiter.consume('key:1', free)),
    );
    expect(allowedCount(decisions)).toBe(60);
    expect(decisions.filter((d) => !d.allowed && d.code === 'rate_limited')).toHaveLength(40);
  });

  it('bans a key after the threshold of 429 answers within a minute, until the ban ends', async () => {
    const clock = new ManualClock();
    const limiter = await backend.open(clock, { threshold: 3, seconds: 120 });
    const quota = { perMinute: 2, perDay: 100 };
    const decisions = await sequential(limiter, 'key:1', quota, 6);
    expect(decisions.map((d) => (d.allowed ? 'ok' : d.code))).toEqual([
      'ok',
      'ok',
      'rate_limited',
      'rate_limited',
      'rate_limited',
      'key_banned',
    ]);
    const banEnd = clock.ms / 1000 + 120;
    expect(decisions[5]).toEqual({
      allowed: false,
      code: 'key_banned',
      window: { limit: 2, remaining: 0, resetSeconds: banEnd },
      retryAfterSeconds: 120,
    });
    clock.advance(100);
    expect(await limiter.consume('key:1', quota)).toMatchObject({
      code: 'key_banned',
      retryAfterSeconds: 20,
    });
    clock.advance(20);
    expect(await limiter.consume('key:1', quota)).toMatchObject({
      allowed: true,
      window: { limit: 2, remaining: 1 },
    });
  });

  it('does not ban a key whose 429 answers are spread over several minutes', async () => {
    const clock = new ManualClock();
    const limiter = await backend.open(clock, { threshold: 3, seconds: 120 });
    const quota = { perMinute: 1, perDay: 100 };
    await sequential(limiter, 'key:1', quota, 3);
    clock.advance(60);
    const decisions = await sequential(limiter, 'key:1', quota, 3);
    expect(decisions.map((d) => (d.allowed ? 'ok' : d.code))).toEqual([
      'ok',
      'rate_limited',
      'rate_limited',
    ]);
  });

  it('never bans a client address, only API keys', async () => {
    const clock = new ManualClock();
    const limiter = await backend.open(clock, { threshold: 1, seconds: 900 });
    const decisions = await sequential(limiter, 'ip:192.0.2.1', { perMinute: 1, perDay: 100 }, 5);
    expect(decisions.map((d) => (d.allowed ? 'ok' : d.code))).toEqual([
      'ok',
      'rate_limited',
      'rate_limited',
      'rate_limited',
      'rate_limited',
    ]);
  });
});
