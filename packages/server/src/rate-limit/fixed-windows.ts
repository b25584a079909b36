import type { Quota } from '../domain.js';
import type { WindowState } from './limiter.js';

/** Length of the minute window, in seconds. */
export const MINUTE_SECONDS = 60;
/** Length of the day window, in seconds. */
export const DAY_SECONDS = 86_400;

/**
 * The two fixed windows a request at `nowMs` falls in. Windows are aligned to the clock
 * (whole UTC minutes, UTC days), so every instance agrees on them without coordination
 * and the injected clock alone decides when they reset: the window index is part of the
 * counter's key, the store's expiry only garbage-collects old counters.
 */
export interface WindowIndices {
  minute: number;
  day: number;
}

export function windowIndices(nowMs: number): WindowIndices {
  return {
    minute: Math.floor(nowMs / (MINUTE_SECONDS * 1000)),
    day: Math.floor(nowMs / (DAY_SECONDS * 1000)),
  };
}

/** Whole seconds from `nowMs` until `resetSeconds`, at least 1 (RFC 9110 §10.2.3 delta-seconds). */
export function secondsUntil(resetSeconds: number, nowMs: number): number {
  return Math.max(1, Math.ceil(resetSeconds - nowMs / 1000));
}

/**
 * The window the X-RateLimit-* headers describe after an allowed request: the one with the
 * fewest remaining requests; on a tie, the minute window.
 */
export function headerWindow(
  quota: Quota,
  at: WindowIndices,
  minuteCount: number,
  dayCount: number,
): WindowState {
  const minuteRemaining = quota.perMinute - minuteCount;
  const dayRemaining = quota.perDay - dayCount;
  return dayRemaining < minuteRemaining
    ? { limit: quota.perDay, remaining: dayRemaining, resetSeconds: (at.day + 1) * DAY_SECONDS }
    : {
        limit: quota.perMinute,
        remaining: minuteRemaining,
        resetSeconds: (at.minute + 1) * MINUTE_SECONDS,
      };
}

/**
 * The window that refuses a request over its quota. When both are used up it is the day
 * window: only its reset lets the caller through again, so Retry-After and
 * X-RateLimit-Reset agree on a time at which a retry succeeds.
 */
export function bindingWindow(quota: Quota, at: WindowIndices, dayExceeded: boolean): WindowState {
  return dayExceeded
    ? { limit: quota.perDay, remaining: 0, resetSeconds: (at.day + 1) * DAY_SECONDS }
    : { limit: quota.perMinute, remaining: 0, resetSeconds: (at.minute + 1) * MINUTE_SECONDS };
}
