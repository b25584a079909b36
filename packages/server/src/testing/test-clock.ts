import type { Clock } from '../clock.js';

/** A clock tests move by hand: time passes only when the test says so. */
export interface TestClock extends Clock {
  /** Sets the time (milliseconds since the epoch, or a Date). */
  set(time: number | Date): void;
  /** Moves the time forward by `ms` milliseconds. */
  advance(ms: number): void;
}

/**
 * Creates a `TestClock`, by default at 2030-01-01T00:00:00Z (a fixed, readable instant).
 *
 * @example
 * ```ts
 * const clock = createTestClock();
 * clock.advance(60_000); // one minute later, without waiting
 * ```
 */
export function createTestClock(start: number | Date = Date.UTC(2030, 0, 1)): TestClock {
  let now = typeof start === 'number' ? start : start.getTime();
  return {
    now: () => now,
    set(time) {
      now = typeof time === 'number' ? time : time.getTime();
    },
    advance(ms) {
      now += ms;
    },
  };
}
