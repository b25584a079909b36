import { type Logger, pino } from 'pino';
import type { LogLevel } from './config/index.js';

export type { Logger } from 'pino';

/**
 * Paths never written to the logs: credentials in request headers. (Raw API keys are
 * never logged anywhere; the keys CLI prints a new key once, to stdout, not to the log.)
 */
export const redactedPaths = ['req.headers.authorization', 'req.headers.cookie'];

/**
 * The structured JSON logger (one JSON object per line on stdout).
 *
 * @example
 * ```ts
 * const logger = createLogger('info');
 * logger.info({ url }, 'listening');
 * ```
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: redactedPaths, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
