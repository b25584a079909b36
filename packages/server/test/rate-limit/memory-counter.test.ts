import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRateLimiter } from '../../src/rate-limit/index.js';
import { MemoryCounter } from '../../src/rate-limit/memory-counter.js';
import { rateLimitClock } from './support.js';

describe('MemoryCounter', () => {
  // Expiry follows real time (Date.now), which these tests move by hand.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-06-01T00:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts, takes back and reads per key', async () => {
    const counter = new MemoryCounter({ durationSeconds: 60, maxEntries: 10 });
    expect(await counter.get('a')).toBeNull();
    expect((await counter.consume('a')).consumedPoints).toBe(1);
    expect((await counter.consume('a')).consumedPoints).toBe(2);
    expect((await counter.consume('b')).consumedPoints).toBe(1);
    expect((await counter.reward('a')).consumedPoints).toBe(1);
    expect(await counter.get('a')).toEqual({ consumedPoints: 1 });
    expect((await counter.set('c', 1234, 5)).consumedPoints).toBe(1234);
    expect(await counter.get('c')).toEqual({ consumedPoints: 1234 });
  });

  it('forgets an entry once its duration has passed, and counts it from zero again', async () => {
    const counter = new MemoryCounter({ durationSeconds: 60, maxEntries: 10 });
    await counter.consume('a');
    await counter.set('ban', 99, 5);
    vi.advanceTimersByTime(5_000);
    expect(await counter.get('ban')).toBeNull();
    expect(await counter.get('a')).toEqual({ consumedPoints: 1 });
    vi.advanceTimersByTime(55_000);
    expect(await counter.get('a')).toBeNull();
    expect((await counter.consume('a')).consumedPoints).toBe(1);
  });

  it('keeps an entry without a duration until it is evicted', async () => {
    const counter = new MemoryCounter({ durationSeconds: 0, maxEntries: 10 });
    await counter.consume('a');
    vi.advanceTimersByTime(365 * 86_400_000);
    expect(await counter.get('a')).toEqual({ consumedPoints: 1 });
  });

  it('never holds more than twice maxEntries, forgetting the least recently used', async () => {
    const counter = new MemoryCounter({ durationSeconds: 60, maxEntries: 100 });
    await counter.consume('kept');
    for (let i = 0; i < 10_000; i++) {
      await counter.consume(`flood:${i}`);
      if (i % 50 === 0) await counter.consume('kept');
      expect(counter.size).toBeLessThanOrEqual(200);
    }
    expect(await counter.get('flood:0')).toBeNull();
    expect(await counter.get('flood:9999')).toEqual({ consumedPoints: 1 });
    // Used all along, so never the least recently used: its count survived the flood.
    expect(await counter.get('kept')).toEqual({ consumedPoints: 201 });
  });
});

describe('the in-memory rate limiter under a flood of client addresses', () => {
  it('never forgets a key because of addresses', async () => {
    const clock = rateLimitClock();
    const limiter = createMemoryRateLimiter({ clock, maxSubjects: 50 });
    const key = { kind: 'key', keyId: 1 } as const;
    const quota = { perMinute: 10, perDay: 1_000 };
    for (let i = 0; i < 9; i++) expect((await limiter.consume(key, quota)).allowed).toBe(true);
    for (let i = 0; i < 5_000; i++) {
      await limiter.consume({ kind: 'address', address: `10.0.${i >> 8}.${i & 255}` }, quota);
    }
    // The key's count survived 5,000 addresses: its 10th request is allowed, its 11th is not.
    expect((await limiter.consume(key, quota)).allowed).toBe(true);
    const refused = await limiter.consume(key, quota);
    expect(refused.allowed).toBe(false);
    expect(refused.window.remaining).toBe(0);
  });
});

describe('the in-memory rate limiter’s answers', () => {
  it('decides at once while requests are allowed, and by promise once one is refused', async () => {
    const limiter = createMemoryRateLimiter({ clock: rateLimitClock() });
    const key = { kind: 'key', keyId: 1 } as const;
    const quota = { perMinute: 2, perDay: 1_000 };
    for (let i = 0; i < 2; i++) {
      const allowed = limiter.consume(key, quota);
      expect(allowed).not.toBeInstanceOf(Promise);
      expect(allowed).toMatchObject({ allowed: true, window: { remaining: 1 - i } });
    }
    // A refusal takes the request back out of the counts and strikes towards a ban.
    const refused = limiter.consume(key, quota);
    expect(refused).toBeInstanceOf(Promise);
    expect(await refused).toMatchObject({ allowed: false, code: 'rate_limited' });
  });
});
