/**
 * The Pet Store server as a library: start a server, or build the app from parts; open the
 * storage and the rate limiter; read the config; issue and rotate API keys.
 */
export { createApp, type AppDeps, type PetstoreApp } from './app.js';
export type { AnonymousCaller, Caller, KeyCaller } from './caller/index.js';
export { type Clock, systemClock } from './clock.js';
export {
  type AppConfig,
  ConfigError,
  type LogLevel,
  loadConfig,
  resolveDatabaseUrl,
  type TrustProxy,
} from './config/index.js';
export type { ApiKeyRecord, NewApiKey, Plan, Quota, Subject } from './domain.js';
export { ApiError, errorRegistry } from './errors/index.js';
export {
  generateApiKey,
  hashApiKey,
  isKeyValidAt,
  isWellFormedApiKey,
  issueApiKey,
  type KeyState,
  keyStateAt,
  planQuotas,
  plans,
  quotaForPlan,
  rotateApiKey,
} from './keys/index.js';
export { createLogger, type Logger } from './logger/index.js';
export type { LimitDecision, RateLimiter, WindowState } from './rate-limit/index.js';
export { openRateLimiter } from './rate-limit/index.js';
export { closeOnSignals, type RunningServer, startServer } from './server/index.js';
export {
  type ApiKeyRepository,
  openStorage,
  type PetRepository,
  type Storage,
  StoreUnavailableError,
} from './storage/index.js';
