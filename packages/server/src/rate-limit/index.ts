/**
 * Rate limiting: per-minute and per-day fixed windows per caller, with temporary bans of keys,
 * counted in this process's memory or in Redis (`REDIS_URL`, shared by every instance).
 */
export { MINUTE_SECONDS, DAY_SECONDS } from './fixed-windows.js';
export {
  type BanPolicy,
  defaultBanPolicy,
  type LimitDecision,
  type RateLimiter,
  type WindowState,
} from './limiter.js';
export { createMemoryRateLimiter, type MemoryRateLimiterOptions } from './memory-backend.js';
export { rateLimit, type RateLimitOptions } from './middleware.js';
export { openRateLimiter, type OpenRateLimiterOptions } from './open-rate-limiter.js';
export { createRedisRateLimiter, type RedisRateLimiterOptions } from './redis-backend.js';
