import { describe, expect, it } from 'vitest';
import {
  bindingWindow,
  headerWindow,
  secondsUntil,
  windowIndices,
} from '../../src/rate-limit/fixed-windows.js';

const at = windowIndices(Date.parse('2030-06-01T12:34:56.789Z'));
const minuteReset = Date.parse('2030-06-01T12:35:00Z') / 1000;
const dayReset = Date.parse('2030-06-02T00:00:00Z') / 1000;
const quota = { perMinute: 60, perDay: 1000 };

describe('fixed windows', () => {
  it('aligns the minute window to whole clock minutes and the day window to UTC days', () => {
    expect((at.minute + 1) * 60).toBe(minuteReset);
    expect((at.day + 1) * 86_400).toBe(dayReset);
  });

  it.each([
    // [minute count, day count, window described]
    [1, 1, { limit: 60, remaining: 59, resetSeconds: minuteReset }],
    [60, 60, { limit: 60, remaining: 0, resetSeconds: minuteReset }],
    [1, 950, { limit: 1000, remaining: 50, resetSeconds: dayReset }],
    [10, 950, { limit: 60, remaining: 50, resetSeconds: minuteReset }], // tie: the minute
    [10, 951, { limit: 1000, remaining: 49, resetSeconds: dayReset }],
  ])('describes the window with the fewest left (minute %i, day %i)', (minute, day, window) => {
    expect(headerWindow(quota, at, minute, day)).toEqual(window);
  });

  it.each([
    [false, { limit: 60, remaining: 0, resetSeconds: minuteReset }],
    [true, { limit: 1000, remaining: 0, resetSeconds: dayReset }],
  ])('names the refusing window (day exceeded: %s)', (dayExceeded, window) => {
    expect(bindingWindow(quota, at, dayExceeded)).toEqual(window);
  });

  it.each([
    [minuteReset, Date.parse('2030-06-01T12:34:56.789Z'), 4],
    [minuteReset, Date.parse('2030-06-01T12:34:00Z'), 60],
    [minuteReset, Date.parse('2030-06-01T12:34:59.999Z'), 1],
    [minuteReset, Date.parse('2030-06-01T12:35:00Z'), 1],
  ])(
    'rounds Retry-After up to whole seconds, at least 1 (reset %i, now %i)',
    (reset, now, seconds) => {
      expect(secondsUntil(reset, now)).toBe(seconds);
    },
  );
});
