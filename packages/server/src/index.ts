/** The Pet Store server as a library: build the app, open the storage, read the config. */
export { createApp, type AppDeps, type PetstoreApp } from './app.js';
export { generateApiKey, hashApiKey, isWellFormedApiKey } from './auth/api-key.js';
export { planQuotas, plans, quotaForPlan } from './auth/plans.js';
export { type Clock, systemClock } from './clock.js';
export {
  type AppConfig,
  ConfigError,
  type LogLevel,
  loadConfig,
  resolveDatabaseUrl,
  type TrustProxy,
} from './config.js';
export { ApiError, errorRegistry } from './errors.js';
export { createLogger, type Logger } from './logger.js';
export type { LimitDecision, Quota, RateLimiter, WindowState } from './rate-limit/limiter.js';
export { openStorage } from './storage/open-storage.js';
export type {
  ApiKeyRecord,
  ApiKeyRepository,
  NewApiKey,
  PetRepository,
  Plan,
  Storage,
} from './storage/store.js';
