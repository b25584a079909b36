import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseRateLimitWindows } from '../../src/headers/rate-limit.js';

// 2026-11-21T00:00:30.250Z: the contract's example ("a Free key, after its first request of
// the day at 00:00:30 UTC"), a quarter second into the second.
const NOW = Date.parse('2026-11-21T00:00:30.250Z');
const X_RATE_LIMIT = {
  'X-RateLimit-Limit': '60',
  'X-RateLimit-Remaining': '59',
  'X-RateLimit-Reset': '1795219260',
};
const IETF = {
  'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
  RateLimit: '"minute";r=59;t=30, "day";r=999;t=86370',
};
const MINUTE = {
  policy: 'minute',
  quota: 60,
  windowSeconds: 60,
  remaining: 59,
  reset: new Date('2026-11-21T00:01:00Z'),
};
const DAY = {
  policy: 'day',
  quota: 1000,
  windowSeconds: 86_400,
  remaining: 999,
  reset: new Date('2026-11-22T00:00:00Z'),
};
const SUMMARY = { limit: 60, remaining: 59, reset: new Date('2026-11-21T00:01:00Z') };

describe('parseRateLimit', () => {
  it('reads limit, remaining and the reset (Unix seconds) as a Date', () => {
    const headers = new Headers({ ...X_RATE_LIMIT, 'X-RateLimit-Remaining': '0' });
    expect(parseRateLimit(headers, NOW)).toEqual({ ...SUMMARY, remaining: 0, windows: [] });
  });

  it.each([
    ['both sets', { ...X_RATE_LIMIT, ...IETF }],
    ['only the IETF fields (the summary is their tightest window)', IETF],
  ])('reads both windows of the contract example from %s', (_, init) => {
    expect(parseRateLimit(new Headers(init), NOW)).toEqual({ ...SUMMARY, windows: [MINUTE, DAY] });
  });

  it('takes the summary from the window with the fewest requests left when X-RateLimit-* are absent', () => {
    const headers = new Headers({
      'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      RateLimit: '"minute";r=59;t=30, "day";r=0;t=86370',
    });
    expect(parseRateLimit(headers, NOW)).toMatchObject({
      limit: 1000,
      remaining: 0,
      reset: new Date('2026-11-22T00:00:00Z'),
    });
  });

  it.each([
    ['a header is missing', { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '5' }],
    [
      'a value is not an integer',
      { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': 'lots', 'X-RateLimit-Reset': '1' },
    ],
    [
      'a value is negative',
      { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '-1', 'X-RateLimit-Reset': '1' },
    ],
    ['RateLimit comes without RateLimit-Policy (no quota)', { RateLimit: IETF.RateLimit }],
    [
      'RateLimit-Policy comes without RateLimit (nothing left known)',
      { 'RateLimit-Policy': IETF['RateLimit-Policy'] },
    ],
    [
      'the IETF fields are not Structured Field Lists',
      { 'RateLimit-Policy': 'minute=60', RateLimit: 'r=59; t=30' },
    ],
  ])('returns undefined when %s', (_, init) => {
    expect(parseRateLimit(new Headers(init), NOW)).toBeUndefined();
  });
});

describe('parseRateLimitWindows', () => {
  it.each([
    ['spaces around the members and the field', '  "minute";q=60;w=60 ,   "day";q=1000;w=86400  '],
    [
      'unknown parameters and a quota unit',
      '"minute";q=60;w=60;qu="requests";pk=:YWJj:, "day";q=1000;w=86400;x-extra=?1',
    ],
    ['policy names written as Tokens', 'minute;q=60;w=60, day;q=1000;w=86400'],
    ['members split over two field lines', ['"minute";q=60;w=60', '"day";q=1000;w=86400']],
  ])('reads the policies through %s', (_, policy) => {
    const headers = new Headers();
    for (const line of [policy].flat()) headers.append('RateLimit-Policy', line);
    headers.set('RateLimit', IETF.RateLimit);
    expect(parseRateLimitWindows(headers, NOW)).toEqual([MINUTE, DAY]);
  });

  it('keeps windows of other policy names, in the order they first appear', () => {
    const headers = new Headers({
      'RateLimit-Policy': '"burst";q=10;w=1, "minute";q=60;w=60',
      RateLimit: '"minute";r=59;t=30, "hour";r=100;t=1800',
    });
    expect(parseRateLimitWindows(headers, NOW)).toEqual([
      { policy: 'burst', quota: 10, windowSeconds: 1, remaining: undefined, reset: undefined },
      MINUTE,
      {
        policy: 'hour',
        quota: undefined,
        windowSeconds: undefined,
        remaining: 100,
        reset: new Date('2026-11-21T00:30:30Z'),
      },
    ]);
  });

  it.each([
    ['a negative remaining', '"minute";r=-1;t=30', { remaining: undefined }],
    ['a decimal reset', '"minute";r=59;t=30.5', { reset: undefined }],
    ['a string where a number belongs', '"minute";r="59";t=30', { remaining: undefined }],
    ['an inner list among the members', '("a" "b");r=1, "minute";r=59;t=30', { remaining: 59 }],
  ])('ignores %s, keeping the rest', (_, field, expected) => {
    const headers = new Headers({ RateLimit: field });
    expect(parseRateLimitWindows(headers, NOW)).toEqual([expect.objectContaining(expected)]);
  });

  it('reads nothing from a field that is not a valid List, without throwing', () => {
    const headers = new Headers({
      RateLimit: '"minute";r=59;t=30,, "day"',
      'RateLimit-Policy': '"',
    });
    expect(parseRateLimitWindows(headers, NOW)).toEqual([]);
  });
});
