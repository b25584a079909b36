/** The server's configuration: read from the environment once, validated, with clear messages. */
export {
  type AppConfig,
  type CorsOrigins,
  type HttpLimits,
  ConfigError,
  type LogFormat,
  type LogLevel,
  loadConfig,
  logFormats,
  logLevels,
  type OtlpProtocol,
  resolveDatabaseUrl,
  type TracingConfig,
  type ShutdownTimes,
  type TrustProxy,
} from './load-config.js';
