import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/headers/retry-after.js';

const now = Date.parse('2030-12-05T00:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['1', 1000],
    ['0', 0],
    ['120', 120_000],
    [' 30 ', 30_000],
  ])('reads delta-seconds %j as %i ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it('reads an HTTP-date as the time left until it', () => {
    expect(parseRetryAfter('Thu, 05 Dec 2030 00:00:42 GMT', now)).toBe(42_000);
  });

  it('reads an HTTP-date in the past as no wait', () => {
    expect(parseRetryAfter('Wed, 04 Dec 2030 23:59:00 GMT', now)).toBe(0);
  });

  it.each([[null], [''], ['-5'], ['1.5'], ['soon'], ['+3']])(
    'returns undefined for a missing or malformed value %j',
    (value) => {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    },
  );
});
