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
  if (destination) return pino(options, destination);
  return level === 'silent' ? pino(options) : pino(options, stdout());
}

/**
 * Standard output written asynchronously (pino's sonic-boom): a log line costs the request a
 * buffer append, not a blocking write; lines that come while a write is under way go out
 * together with the next. Nothing waits for more to arrive, so a line is out within a write.
 * What is still buffered when the process exits is written synchronously then.
 */
function stdout(): pino.DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false });
  process.once('exit', () => destination.flushSync());
  return destination;
}
