import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import type { ApiKeyRecord } from '../storage/store.js';
import type { Quota, RateLimiter } from './limiter.js';

export interface RateLimitOptions {
  limiter: RateLimiter;
  /** The quota of callers without a valid key, counted per client address (the Free plan's). */
  anonymousQuota: Quota;
}

/**
 * Counts every request against the caller's quota and sets the X-RateLimit-* headers
 * (on every response, errors included, since it runs before anything can fail).
 * Expects `res.locals.apiKey` (the caller's active key, or undefined) to be set already.
 */
export function rateLimit({ limiter, anonymousQuota }: RateLimitOptions): RequestHandler {
  return async (req, res, next) => {
    const key = res.locals.apiKey as ApiKeyRecord | undefined;
    const subject = key ? `key:${key.id}` : `ip:${req.ip ?? 'unknown'}`;
    const quota = key ? { perMinute: key.perMinute, perDay: key.perDay } : anonymousQuota;
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
