import type { RequestHandler } from 'express';
import { ApiError } from '../errors/index.js';
import { gatherHeader } from '../http/index.js';
import { isPending } from './counters.js';
import type { LimitDecision, RateLimiter } from './limiter.js';

/** What became of a request at the limiter (the metric's `outcome` label). */
export type RateLimitOutcome = 'allowed' | 'limited' | 'banned';

export interface RateLimitOptions {
  limiter: RateLimiter;
  /** Told of each decision (for metrics). */
  onDecision?: ((outcome: RateLimitOutcome) => void) | undefined;
}

/**
 * The rate-limit headers of a decision: the `X-RateLimit-*` trio the specification asks for (the
 * window with the fewest requests left), and the IETF `RateLimit-Policy` and `RateLimit` fields
 * (draft-ietf-httpapi-ratelimit-headers-10) describing both windows, so the two sets always
 * agree.
 */
export function rateLimitHeaders({ window, windows }: LimitDecision): Record<string, string> {
  const { minute, day } = windows;
  return {
    'X-RateLimit-Limit': String(window.limit),
    'X-RateLimit-Remaining': String(window.remaining),
    'X-RateLimit-Reset': String(window.resetSeconds),
    'RateLimit-Policy': `"minute";q=${minute.limit};w=60, "day";q=${day.limit};w=86400`,
    RateLimit: `"minute";r=${minute.remaining};t=${minute.secondsToReset}, "day";r=${day.remaining};t=${day.secondsToReset}`,
  };
}

/**
 * Counts every request against the caller's quota (`res.locals.caller`, set by
 * `identifyCaller`) and sets the rate-limit headers on every response, errors included,
 * since it runs before anything can fail. A decision that comes at once (the in-memory
 * backend) goes on at once, without a promise.
 */
export function rateLimit({ limiter, onDecision }: RateLimitOptions): RequestHandler {
  return (_req, res, next) => {
    const { subject, quota } = res.locals.caller;
    const apply = (decision: LimitDecision): void => {
      const headers = rateLimitHeaders(decision);
      for (const name in headers) gatherHeader(res, name, headers[name] as string);
      onDecision?.(
        decision.allowed ? 'allowed' : decision.code === 'key_banned' ? 'banned' : 'limited',
      );
      if (decision.allowed) return next();
      next(
        new ApiError(decision.code, undefined, {
          'Retry-After': String(decision.retryAfterSeconds),
        }),
      );
    };
    const decision = limiter.consume(subject, quota);
    if (isPending(decision)) return decision.then(apply);
    apply(decision);
  };
}
