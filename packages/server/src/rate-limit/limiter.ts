/**
 * The rate-limiting seam: one interface, two backends (in-process memory and Redis).
 * A subject is who is counted: `key:<id>` for an API key, `ip:<address>` for callers
 * without a valid key.
 */
export interface Quota {
  perMinute: number;
  perDay: number;
}

/** What the X-RateLimit-* headers say: the window with the fewest remaining requests. */
export interface WindowState {
  limit: number;
  remaining: number;
  /** Unix time, in seconds, at which that window resets. */
  resetSeconds: number;
}

export type LimitDecision =
  | { allowed: true; window: WindowState }
  | {
      allowed: false;
      code: 'rate_limited' | 'key_banned';
      window: WindowState;
      /** Whole seconds until the caller may retry (the Retry-After header). */
      retryAfterSeconds: number;
    };

export interface RateLimiter {
  /** Counts one request of `subject` against `quota` and says whether it may proceed. */
  consume(subject: string, quota: Quota): Promise<LimitDecision>;
  close(): Promise<void>;
}
