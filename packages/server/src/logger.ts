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
/** A batch this large is written at once. */
const LOG_BATCH_CHARACTERS = 8 * 1024;

/**
 * Standard output written asynchronously (pino's sonic-boom), in batches: a log line costs the
 * request an array push, and the lines gathered go out as one string in one write, at the end
 * of the event-loop turn when the last batch was at least {@link LOG_BATCH_MS} ago, else once
 * that much time has passed (a write wakes a thread of the pool, which costs more than the
 * line). Past 8 KiB the batch goes at once. A batch that comes while a write is under way waits
 * in sonic-boom, which writes it when that write is done. Lines are joined here, not appended
 * to sonic-boom's buffer one by one: it measures its buffered string on every append, which
 * flattened the whole batch per line (the server's largest allocation per request, ~6 KB).
 * What is still gathered when the process exits is written synchronously then; a `kill -9`
 * loses what was not yet written, never a response.
 */
function stdout(): pino.DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false });
  let lines: string[] = [];
  let characters = 0;
  let queued = false;
  let lastBatch = Number.NEGATIVE_INFINITY;
  const flush = () => {
    queued = false;
    if (lines.length === 0) return;
    lastBatch = performance.now();
    const batch = lines.join('');
    lines = [];
    characters = 0;
    destination.write(batch);
  };
  process.once('exit', () => {
    flush();
    destination.flushSync();
  });
  return {
    write(line: string) {
      lines.push(line);
      characters += line.length;
      if (characters >= LOG_BATCH_CHARACTERS) return flush();
      if (queued) return;
      queued = true;
      const wait = lastBatch + LOG_BATCH_MS - performance.now();
      if (wait > 0) setTimeout(flush, wait);
      else setImmediate(flush);
    },
  };
}
