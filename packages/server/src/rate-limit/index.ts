/**
 * Rate limiting: per-minute and per-day fixed windows per caller, with temporary bans of keys,
 * counted in this process's memory or in Redis (`REDIS_URL`, shared by every instance).
 */
export type { CounterWrapper } from './counters.js';
export { DAY_SECONDS, MINUTE_SECONDS, windowStates } from './fixed-windows.js';
export {
  type BanPolicy,
  defaultBanPolicy,
  type LimitDecision,
  type LimiterHealth,
  type RateLimiter,
  type WindowState,
  type Windows,
} from './limiter.js';
export { createMemoryRateLimiter, type MemoryRateLimiterOptions } from './memory-backend.js';
export {
  rateLimit,
  rateLimitHeaders,
  type RateLimitOptions,
  type RateLimitOutcome,
} from './middleware.js';
export { openRateLimiter, type OpenRateLimiterOptions } from './open-rate-limiter.js';
export { createRedisRateLimiter, type RedisRateLimiterOptions } from './redis-backend.js';
