import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/retry/backoff.js';

const options = { baseDelayMs: 500, maxDelayMs: 3000 };

describe('backoffDelay', () => {
  it.each([
    [1, 500],
    [2, 1000],
    [3, 2000],
    [4, 3000],
    [10, 3000],
  ])('caps retry %i at min(maxDelay, base × 2^(retry−1)) = %i ms', (retry, ceiling) => {
    expect(backoffDelay(retry, options, () => 0.999999)).toBe(Math.floor(0.999999 * ceiling));
  });

  it('draws the wait uniformly below the ceiling (full jitter)', () => {
    expect(backoffDelay(3, options, () => 0)).toBe(0);
    expect(backoffDelay(3, options, () => 0.5)).toBe(1000);
    expect(backoffDelay(3, options, () => 0.25)).toBe(500);
  });
});
