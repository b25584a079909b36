import type { Quota } from '../domain.js';
import type { WindowState, Windows } from './limiter.js';

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
 * Both windows after `minuteCount` and `dayCount` requests counted in them at `nowMs`: their
 * limits, what remains (never below 0) and when each resets.
 */
export function windowStates(
  quota: Quota,
  nowMs: number,
  minuteCount: number,
  dayCount: number,
): Windows {
  const at = windowIndices(nowMs);
  return {
    minute: windowState(quota.perMinute, minuteCount, (at.minute + 1) * MINUTE_SECONDS, nowMs),
    day: windowState(quota.perDay, dayCount, (at.day + 1) * DAY_SECONDS, nowMs),
  };
}

function windowState(limit: number, count: number, resetSeconds: number, nowMs: number) {
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds,
    // The IETF field's `t`: X-RateLimit-Reset minus the response's whole Unix seconds (≥ 1).
    secondsToReset: resetSeconds - Math.floor(nowMs / 1000),
  };
}

/**
 * The window the X-RateLimit-* headers describe after an allowed request: the one with the
 * fewest remaining requests; on a tie, the minute window.
 */
export function headerWindow({ minute, day }: Windows): WindowState {
  return day.remaining < minute.remaining ? day : minute;
}

/**
 * The window that refuses a request over its quota. When both are used up it is the day
 * window: only its reset lets the caller through again, so Retry-After and
 * X-RateLimit-Reset agree on a time at which a retry succeeds.
 */
export function bindingWindow({ minute, day }: Windows, dayExceeded: boolean): WindowState {
  return dayExceeded ? day : minute;
}
