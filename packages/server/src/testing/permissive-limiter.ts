import type { Clock } from '../clock.js';
import type { Quota, Subject } from '../domain.js';
import type { LimitDecision, RateLimiter } from '../rate-limit/index.js';

/**
 * A limiter that allows every request and reports a full minute window: for tests about
 * everything but rate limiting. (The real backends live in `src/rate-limit/`.)
 */
export function createPermissiveLimiter(clock: Clock): RateLimiter {
  return {
    async consume(_subject: Subject, quota: Quota): Promise<LimitDecision> {
      const resetSeconds = Math.floor(clock.now() / 60_000) * 60 + 60;
      return {
        allowed: true,
        window: { limit: quota.perMinute, remaining: quota.perMinute - 1, resetSeconds },
      };
    },
    async close() {},
  };
}
