import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../src/headers/rate-limit.js';

describe('parseRateLimit', () => {
  it('reads limit, remaining and the reset (Unix seconds) as a Date', () => {
    const headers = new Headers({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1795219260',
    });
    expect(parseRateLimit(headers)).toEqual({
      limit: 60,
      remaining: 0,
      reset: new Date('2026-11-21T00:01:00.000Z'),
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
  ])('returns undefined when %s', (_, init) => {
    expect(parseRateLimit(new Headers(init))).toBeUndefined();
  });
});
