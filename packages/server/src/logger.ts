import { performance } from 'node:perf_hooks';
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

/** Log lines reach standard output at most this often (sooner when 8 KiB gather). */
const LOG_BATCH_MS = 20;

/**
 * Standard output written asynchronously (pino's sonic-boom), in batches: a log line costs the
 * request a buffer append, and the lines gathered go out in one write, at the end of the
 * event-loop turn when the last write was at least {@link LOG_BATCH_MS} ago, else once that
 * much time has passed (a write wakes a thread of the pool, which costs more than the line).
 * Past 8 KiB, sonic-boom writes by itself. What is still buffered when the process exits is
 * written synchronously then; a `kill -9` loses what was not yet written, never a response.
 */
function stdout(): pino.DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 8 * 1024 });
  process.once('exit', () => destination.flushSync());
  let unwritten = 0; // bytes given to the destination and not yet written
  let queued = false;
  let lastFlush = Number.NEGATIVE_INFINITY;
  const flush = () => {
    queued = false;
    lastFlush = performance.now();
    destination.flush(); // does nothing while a write is under way: 'drain' queues another
  };
  const queueFlush = () => {
    if (queued || unwritten === 0) return;
    queued = true;
    const wait = lastFlush + LOG_BATCH_MS - performance.now();
    if (wait > 0) setTimeout(flush, wait);
    else setImmediate(flush);
  };
  destination.on('write', (bytes: number) => {
    unwritten -= bytes;
  });
  destination.on('drain', queueFlush);
  return {
    write(line: string) {
      destination.write(line);
      unwritten += Buffer.byteLength(line);
      queueFlush();
    },
  };
}
