import type { Quota, Subject } from '../domain.js';
import type { Counted } from './counters.js';

/**
 * The rate-limiting seam: one interface, two backends (in-process memory and Redis).
 * A subject (see `domain.ts`) is who is counted: an API key, or the client address of a
 * caller without a valid key. Only keys can be banned.
 */

/** What the X-RateLimit-* headers say: the window with the fewest remaining requests. */
export interface WindowState {
  limit: number;
  remaining: number;
  /** Unix time, in seconds, at which that window resets. */
  resetSeconds: number;
  /** Whole seconds from the decision until the window resets, at least 1. */
  secondsToReset: number;
}

/** Both windows of the caller's quota after a decision (the IETF `RateLimit` fields). */
export interface Windows {
  minute: WindowState;
  day: WindowState;
}

export type LimitDecision =
  | { allowed: true; window: WindowState; windows: Windows }
  | {
      allowed: false;
      code: 'rate_limited' | 'key_banned';
      /** The window that refused the request (the ban, for `key_banned`); remaining is 0. */
      window: WindowState;
      /** Both windows; the refusing one (both, for a ban) with nothing remaining. */
      windows: Windows;
      /** Whole seconds until the caller may retry (the Retry-After header), at least 1. */
      retryAfterSeconds: number;
    };

/** Where a limiter counts, and whether that works right now (for readiness and metrics). */
export type LimiterHealth =
  | { backend: 'memory' }
  /** `reachable: false`: Redis is away and this process counts on its own meanwhile. */
  | { backend: 'redis'; reachable: boolean };

export interface RateLimiter {
  /**
   * Counts one request of `subject` against `quota` and says whether it may proceed.
   * A refused request is not counted: it uses up none of the quota. The decision comes at
   * once when the counts are in this process (the in-memory backend allowing a request), else
   * as a promise; `await` takes either.
   */
  consume(subject: Subject, quota: Quota): Counted<LimitDecision>;
  health(): LimiterHealth;
  close(): Promise<void>;
}

/** The temporary ban of keys that keep sending requests after a 429. */
export interface BanPolicy {
  /** How many `rate_limited` answers to one key within one clock minute ban it. */
  threshold: number;
  /** How long the ban lasts, in seconds. */
  seconds: number;
}

/** The defaults of `RATE_LIMIT_BAN_THRESHOLD` and `RATE_LIMIT_BAN_SECONDS`. */
export const defaultBanPolicy: BanPolicy = { threshold: 20, seconds: 900 };
