import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { CounterWrapper } from './counters.js';
import type { BanPolicy, RateLimiter } from './limiter.js';
import { createMemoryRateLimiter } from './memory-backend.js';
import { createRedisRateLimiter } from './redis-backend.js';

export interface OpenRateLimiterOptions {
  /** `REDIS_URL`: set, limits are shared through Redis; unset, kept in this process. */
  redisUrl: string | undefined;
  clock: Clock;
  ban: BanPolicy;
  logger: Pick<Logger, 'warn' | 'info'>;
  /** With Redis: wraps each counter kept there (tracing). */
  wrapCounter?: CounterWrapper | undefined;
}

/**
 * The rate limiter `main` uses: Redis when `redisUrl` is set, else in-process memory.
 * With Redis it resolves once the first connection attempt settles (never fails: an
 * unreachable Redis is logged and the in-process counters take over until it answers).
 *
 * @example
 * ```ts
 * const limiter = await openRateLimiter({
 *   redisUrl: config.redisUrl,
 *   clock: systemClock,
 *   ban: { threshold: config.banThreshold, seconds: config.banSeconds },
 *   logger,
 * });
 * ```
 */
export async function openRateLimiter({
  redisUrl,
  clock,
  ban,
  logger,
  wrapCounter,
}: OpenRateLimiterOptions): Promise<RateLimiter> {
  return redisUrl === undefined
    ? createMemoryRateLimiter({ clock, ban })
    : createRedisRateLimiter({ url: redisUrl, clock, ban, logger, wrapCounter });
}
