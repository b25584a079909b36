import type { Clock } from '../clock.js';
import type { Quota, Subject } from '../domain.js';
import { type LimitDecision, type RateLimiter, windowStates } from '../rate-limit/index.js';

/**
 * A limiter that allows every request and reports the first request of a fresh minute and day:
 * for tests about everything but rate limiting. (The real backends live in `src/rate-limit/`.)
 */
export function createPermissiveLimiter(clock: Clock): RateLimiter {
  return {
    async consume(_subject: Subject, quota: Quota): Promise<LimitDecision> {
      const windows = windowStates(quota, clock.now(), 1, 1);
      return { allowed: true, window: windows.minute, windows };
    },
    health: () => ({ backend: 'memory' }),
    async close() {},
  };
}
