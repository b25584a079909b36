/** The server's configuration: read from the environment once, validated, with clear messages. */
export {
  type AppConfig,
  type CorsOrigins,
  type HttpLimits,
  ConfigError,
  type LogLevel,
  loadConfig,
  logLevels,
  resolveDatabaseUrl,
  type ShutdownTimes,
  type TrustProxy,
} from './load-config.js';
