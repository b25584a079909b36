import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/rate-limit/index.js';
import { MemoryCounter } from '../../src/rate-limit/memory-counter.js';
import { rateLimitClock } from './support.js';

/** A counter on a hand-moved real-time clock (expiry only; windows come from the key). */
function counterAt(start: number, options: { durationSeconds: number; maxEntries: number }) {
  const time = { now: start };
  return { counter: new MemoryCounter({ ...options, now: () => time.now }), time };
}

describe('MemoryCounter', () => {
  it('counts, takes back and reads per key', async () => {
    const { counter } = counterAt(0, { durationSeconds: 60, maxEntries: 10 });
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
    const { counter, time } = counterAt(1_000, { durationSeconds: 60, maxEntries: 10 });
    await counter.consume('a');
    await counter.set('ban', 99, 5);
    time.now += 5_000;
    expect(await counter.get('ban')).toBeNull();
    expect(await counter.get('a')).toEqual({ consumedPoints: 1 });
    time.now += 55_000;
    expect(await counter.get('a')).toBeNull();
    expect((await counter.consume('a')).consumedPoints).toBe(1);
  });

  it('drops expired entries as new ones arrive, so memory follows the live entries', async () => {
    const { counter, time } = counterAt(0, { durationSeconds: 60, maxEntries: 1_000_000 });
    for (let i = 0; i < 1_000; i++) await counter.consume(`old:${i}`);
    expect(counter.size).toBe(1_000);
    time.now += 61_000;
    for (let i = 0; i < 1_000; i++) await counter.consume(`new:${i}`);
    // Each insertion dropped up to two expired entries: the old ones are gone.
    expect(counter.size).toBe(1_000);
    expect(await counter.get('new:0')).toEqual({ consumedPoints: 1 });
  });

  it('never holds more than maxEntries, dropping the oldest first', async () => {
    const { counter } = counterAt(0, { durationSeconds: 60, maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await counter.consume(key);
    expect(counter.size).toBe(3);
    expect(await counter.get('a')).toBeNull();
    expect(await counter.get('b')).toBeNull();
    expect(await counter.get('e')).toEqual({ consumedPoints: 1 });
  });
});

describe('the in-memory rate limiter under a flood of client addresses', () => {
  it('stays bounded and never forgets a key because of addresses', async () => {
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
