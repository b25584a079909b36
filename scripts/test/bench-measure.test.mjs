// The figure a window reports from its half-second slices (scripts/bench/measure.mjs); the
// slicing itself runs for real in bench-smoke.test.mjs.
import { describe, expect, it } from 'vitest';
import { SLICE_QUANTILE, sliceQuantile } from '../bench/measure.mjs';

describe('sliceQuantile', () => {
  // 20 slices of 1,000 answers costing 50, 51, …, 69 µs each, shuffled, and two without answers.
  const slices = [
    ...Array.from({ length: 20 }, (_, i) => [1000, (50 + ((i * 7) % 20)) * 1000]),
    [0, 4000],
    [0, 0],
  ];

  it('is the nearest rank at or below the quantile of CPU per request, slices without answers left out', () => {
    expect(SLICE_QUANTILE).toBe(0.1);
    // Rank floor(0.1 × 19) = 1 of 0–19: the second cheapest.
    expect(sliceQuantile(slices, SLICE_QUANTILE)).toBe(51);
    expect(sliceQuantile(slices, 0)).toBe(50);
    expect(sliceQuantile(slices, 0.5)).toBe(59);
    expect(sliceQuantile(slices, 1)).toBe(69);
  });

  it('weighs each slice by its own answers: CPU per request, not CPU', () => {
    expect(
      sliceQuantile(
        [
          [100, 9000],
          [300, 6000],
          [200, 8000],
        ],
        0,
      ),
    ).toBe(20);
  });

  it('is null when no slice has an answer', () => {
    expect(sliceQuantile([], 0.1)).toBeNull();
    expect(sliceQuantile([[0, 1000]], 0.1)).toBeNull();
  });
});
