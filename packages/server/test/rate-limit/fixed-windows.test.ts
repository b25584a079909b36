import { describe, expect, it } from 'vitest';
import {
  bindingWindow,
  headerWindow,
  secondsUntil,
  windowIndices,
  windowStates,
} from '../../src/rate-limit/fixed-windows.js';

const now = Date.parse('2030-06-01T12:34:56.789Z');
const at = windowIndices(now);
const minuteReset = Date.parse('2030-06-01T12:35:00Z') / 1000;
const dayReset = Date.parse('2030-06-02T00:00:00Z') / 1000;
const quota = { perMinute: 60, perDay: 1000 };

describe('fixed windows', () => {
  it('aligns the minute window to whole clock minutes and the day window to UTC days', () => {
    expect((at.minute + 1) * 60).toBe(minuteReset);
    expect((at.day + 1) * 86_400).toBe(dayReset);
  });

  // At 12:34:56.789 the minute resets in 4 s (60 − 56) and the day in 41,104 s.
  const minuteWindow = (remaining: number) => ({
    limit: 60,
    remaining,
    resetSeconds: minuteReset,
    secondsToReset: 4,
  });
  const dayWindow = (remaining: number) => ({
    limit: 1000,
    remaining,
    resetSeconds: dayReset,
    secondsToReset: 41_104,
  });

  it('reports both windows, never less than nothing remaining', () => {
    expect(windowStates(quota, now, 3, 40)).toEqual({
      minute: minuteWindow(57),
      day: dayWindow(960),
    });
    expect(windowStates(quota, now, 61, 1001)).toEqual({
      minute: minuteWindow(0),
      day: dayWindow(0),
    });
  });

  it.each([
    // [minute count, day count, window described]
    [1, 1, minuteWindow(59)],
    [60, 60, minuteWindow(0)],
    [1, 950, dayWindow(50)],
    [10, 950, minuteWindow(50)], // tie: the minute
    [10, 951, dayWindow(49)],
  ])('describes the window with the fewest left (minute %i, day %i)', (minute, day, window) => {
    expect(headerWindow(windowStates(quota, now, minute, day))).toEqual(window);
  });

  it.each([
    [false, minuteWindow(0)],
    [true, dayWindow(0)],
  ])('names the refusing window (day exceeded: %s)', (dayExceeded, window) => {
    expect(bindingWindow(windowStates(quota, now, 60, 1000), dayExceeded)).toEqual(window);
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
