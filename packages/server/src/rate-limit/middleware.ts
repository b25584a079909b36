import type { RequestHandler } from 'express';
import { ApiError } from '../errors/index.js';
import type { RateLimiter } from './limiter.js';

export interface RateLimitOptions {
  limiter: RateLimiter;
}

/**
 * Counts every request against the caller's quota (`res.locals.caller`, set by
 * `identifyCaller`) and sets the X-RateLimit-* headers on every response, errors included,
 * since it runs before anything can fail.
 */
export function rateLimit({ limiter }: RateLimitOptions): RequestHandler {
  return async (_req, res, next) => {
    const { subject, quota } = res.locals.caller;
    const decision = await limiter.consume(subject, quota);
    res.setHeader('X-RateLimit-Limit', String(decision.window.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.window.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.window.resetSeconds));
    if (decision.allowed) return next();
    next(
      new ApiError(decision.code, undefined, { 'Retry-After': String(decision.retryAfterSeconds) }),
    );
  };
}
