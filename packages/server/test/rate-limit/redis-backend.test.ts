import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type BanPolicy,
  createRedisRateLimiter,
  type LimitDecision,
  type RateLimiter,
} from '../../src/rate-limit/index.js';
import {
  addressSubject,
  capturedLogger,
  deleteKeys,
  freePort,
  keySubject,
  OwnRedis,
  rateLimitClock,
  redisUrl,
  uniquePrefix,
} from './support.js';

const free = { perMinute: 60, perDay: 1000 };
const outcome = (d: LimitDecision) => (d.allowed ? 'ok' : d.code);

describe('Redis backend', () => {
  const opened: RateLimiter[] = [];
  let keyPrefix = '';
  const clock = rateLimitClock();

  async function instance(ban: BanPolicy = { threshold: 0, seconds: 1 }) {
    const limiter = await createRedisRateLimiter({
      url: redisUrl,
      clock,
      ban,
      keyPrefix,
      logger: capturedLogger().logger,
    });
    opened.push(limiter);
    return limiter;
  }

  afterEach(async () => {
    for (const limiter of opened.splice(0)) await limiter.close();
    await deleteKeys(redisUrl, keyPrefix);
  });

  it('keeps its counts in Redis, under the key prefix, per clock minute', async () => {
    keyPrefix = uniquePrefix();
    const limiter = await instance();
    for (let i = 0; i < 3; i++) await limiter.consume(keySubject(5), free);
    const redis = new Redis(redisUrl);
    const minute = Math.floor(clock.now() / 60_000);
    const day = Math.floor(clock.now() / 86_400_000);
    const [minuteCount, dayCount] = await Promise.all([
      redis.get(`${keyPrefix}:minute:key:5:${minute}`),
      redis.get(`${keyPrefix}:day:key:5:${day}`),
    ]);
    redis.disconnect();
    expect([minuteCount, dayCount]).toEqual(['3', '3']);
  });

  it('shares one limit between two instances on one Redis', async () => {
    keyPrefix = uniquePrefix();
    const [a, b] = [await instance(), await instance()];
    const decisions = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).consume(keySubject(1), free)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    expect(decisions.filter((d) => !d.allowed && d.code === 'rate_limited')).toHaveLength(40);
  });

  it('enforces a ban made by one instance on the other', async () => {
    keyPrefix = uniquePrefix();
    const ban = { threshold: 2, seconds: 300 };
    const [a, b] = [await instance(ban), await instance(ban)];
    const quota = { perMinute: 1, perDay: 100 };
    const onA = [];
    for (let i = 0; i < 3; i++) onA.push(outcome(await a.consume(keySubject(1), quota)));
    expect(onA).toEqual(['ok', 'rate_limited', 'rate_limited']);
    expect(await b.consume(keySubject(1), quota)).toMatchObject({
      code: 'key_banned',
      retryAfterSeconds: 300,
    });
  });
});

describe('Redis backend when Redis goes away and comes back', () => {
  let own: OwnRedis;

  beforeAll(async () => {
    own = new OwnRedis(await freePort());
    await own.start();
  });
  afterAll(async () => {
    await own.stop();
  });

  it('keeps limiting in process, logs the outage once, and returns to Redis', async () => {
    const clock = rateLimitClock();
    const log = capturedLogger();
    const limiter = await createRedisRateLimiter({
      url: own.url,
      clock,
      ban: { threshold: 0, seconds: 1 },
      keyPrefix: 'outage',
      logger: log.logger,
    });
    const quota = { perMinute: 3, perDay: 100 };
    try {
      expect(outcome(await limiter.consume(keySubject(1), quota))).toBe('ok');

      await own.stop();
      await log.waitFor(/unreachable/);
      const during: string[] = [];
      for (let i = 0; i < 5; i++) during.push(outcome(await limiter.consume(keySubject(1), quota)));
      // The in-process counters start from zero: three more pass, then the limit holds.
      expect(during).toEqual(['ok', 'ok', 'ok', 'rate_limited', 'rate_limited']);

      await own.start();
      await log.waitFor(/reachable again/);
      clock.advance(60_000);
      expect(await limiter.consume(keySubject(1), quota)).toMatchObject({
        allowed: true,
        window: { remaining: 2 },
      });
      const probe = new Redis(own.url);
      const stored = await probe.get(`outage:minute:key:1:${Math.floor(clock.now() / 60_000)}`);
      probe.disconnect();
      expect(stored).toBe('1');
      expect(log.lines.map((line) => [line.level, line.msg])).toEqual([
        [40, 'Redis is unreachable: rate limits are counted in this process until it returns'],
        [30, 'Redis is reachable again: rate limits are shared through it again'],
      ]);
    } finally {
      await limiter.close();
    }
  });

  it('answers from the in-process counters when Redis stops answering', async () => {
    const log = capturedLogger();
    const limiter = await createRedisRateLimiter({
      url: own.url,
      clock: rateLimitClock(),
      ban: { threshold: 0, seconds: 1 },
      keyPrefix: 'hang',
      logger: log.logger,
      commandTimeoutMs: 50,
    });
    const quota = { perMinute: 2, perDay: 10 };
    try {
      expect(outcome(await limiter.consume(keySubject(1), quota))).toBe('ok');
      own.pause();
      const during = [];
      for (let i = 0; i < 3; i++) during.push(outcome(await limiter.consume(keySubject(1), quota)));
      expect(during).toEqual(['ok', 'ok', 'rate_limited']);
    } finally {
      own.resume();
      await limiter.close();
    }
  });

  it('keeps banning keys in process while Redis is away', async () => {
    const log = capturedLogger();
    const limiter = await createRedisRateLimiter({
      url: own.url,
      clock: rateLimitClock(),
      ban: { threshold: 1, seconds: 60 },
      keyPrefix: 'ban-outage',
      logger: log.logger,
    });
    try {
      await own.stop();
      await log.waitFor(/unreachable/);
      const decisions = [];
      for (let i = 0; i < 3; i++) {
        decisions.push(outcome(await limiter.consume(keySubject(1), { perMinute: 1, perDay: 10 })));
      }
      expect(decisions).toEqual(['ok', 'rate_limited', 'key_banned']);
    } finally {
      await limiter.close();
    }
  });

  it('keeps its in-process counters bounded while Redis is away: addresses are forgotten, keys are not', async () => {
    const limiter = await createRedisRateLimiter({
      url: `redis://127.0.0.1:${await freePort()}`,
      clock: rateLimitClock(),
      ban: { threshold: 0, seconds: 1 },
      logger: capturedLogger().logger,
      maxSubjects: 50,
    });
    const quota = { perMinute: 2, perDay: 100 };
    try {
      const first = addressSubject('192.0.2.1');
      await limiter.consume(first, quota);
      await limiter.consume(first, quota);
      expect(outcome(await limiter.consume(first, quota))).toBe('rate_limited');
      expect(outcome(await limiter.consume(keySubject(1), quota))).toBe('ok');
      for (let i = 0; i < 200; i++) {
        await limiter.consume(addressSubject(`10.0.0.${i}`), quota);
      }
      // Past 50 addresses the least recent were dropped: the first address counts from zero
      // again (an unbounded fallback would still refuse it). The key's count was kept apart.
      expect(outcome(await limiter.consume(first, quota))).toBe('ok');
      expect(outcome(await limiter.consume(keySubject(1), quota))).toBe('ok');
      expect(outcome(await limiter.consume(keySubject(1), quota))).toBe('rate_limited');
    } finally {
      await limiter.close();
    }
  });

  it('starts on the in-process counters when Redis is not there at start-up', async () => {
    const log = capturedLogger();
    const limiter = await createRedisRateLimiter({
      url: `redis://127.0.0.1:${await freePort()}`,
      clock: rateLimitClock(),
      ban: { threshold: 0, seconds: 1 },
      logger: log.logger,
    });
    try {
      const decisions = [];
      for (let i = 0; i < 3; i++)
        decisions.push(outcome(await limiter.consume(keySubject(1), { perMinute: 2, perDay: 10 })));
      expect(decisions).toEqual(['ok', 'ok', 'rate_limited']);
      expect(log.lines.map((line) => line.msg)).toEqual([
        'Redis is unreachable: rate limits are counted in this process until it returns',
      ]);
    } finally {
      await limiter.close();
    }
  });
});
