/** The server's configuration: read from the environment once, validated, with clear messages. */
export {
  type AppConfig,
  ConfigError,
  type LogLevel,
  loadConfig,
  logLevels,
  resolveDatabaseUrl,
  type TrustProxy,
} from './load-config.js';
