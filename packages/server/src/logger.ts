import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { type Logger, pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import sonicBoom from 'sonic-boom';
import type { LogFormat, LogLevel } from './config/index.js';

export type { Logger } from 'pino';

// A CommonJS module whose export is the class, which also carries itself as `SonicBoom`.
const { SonicBoom } = sonicBoom;

/**
 * Paths never written to the logs: credentials in request headers. (Raw API keys are
 * never logged anywhere; the keys CLI prints a new key once, to stdout, not to the log.)
 */
export const redactedPaths = ['req.headers.authorization', 'req.headers.cookie'];

export interface LoggerOptions {
  /** Where the lines go; default: standard output, batched (JSON) or as they come (pretty). */
  destination?: pino.DestinationStream | undefined;
  /** `json` (default): one JSON object per line; `pretty`: pino-pretty's lines for people. */
  format?: LogFormat | undefined;
  /** Fields added to every line (pino's `mixin`): the active trace's ids, when tracing. */
  mixin?: (() => object) | undefined;
}

/**
 * The structured logger: one JSON object per line on stdout, or, with `format: 'pretty'`
 * (`LOG_FORMAT=pretty`: `npm run dev` and `npm run mock`), the same lines made readable by
 * pino-pretty, which is loaded only then.
 *
 * @example
 * ```ts
 * const logger = createLogger('info');
 * logger.info({ url }, 'listening');
 * ```
 */
export function createLogger(
  level: LogLevel,
  { destination, format = 'json', mixin }: LoggerOptions = {},
): Logger {
  const options = {
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    ...(mixin === undefined ? {} : { mixin }),
  };
  if (format === 'pretty') return pino(options, pretty(destination));
  if (destination) return pino(options, destination);
  return level === 'silent' ? pino(options) : pino(options, stdout());
}

/**
 * pino-pretty's stream (loaded here, synchronously, and only for `pretty`): a request's line
 * reads `request completed: GET /v1/pets 200 in 1.5 ms (id …)`; every other field follows on
 * lines of its own. Written synchronously: for people, not for throughput.
 */
function pretty(destination: pino.DestinationStream | undefined): pino.DestinationStream {
  const build = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return build({
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime',
    messageFormat:
      '{msg}{if req.method}: {req.method} {req.url} {res.statusCode} in {responseTime} ms (id {req.id}){end}',
    ...(destination === undefined ? {} : { destination }),
  });
}

/** Log lines reach standard output at most this often (sooner when 8 KiB gather). */
const LOG_BATCH_MS = 20;
/** A batch this large is written at once. */
const LOG_BATCH_CHARACTERS = 8 * 1024;

/**
 * Standard output written asynchronously (sonic-boom, pino's writer), in batches: a log line
 * costs the request an array push, and the lines gathered go out as one string in one write, at
 * the end of the event-loop turn when the last batch was at least {@link LOG_BATCH_MS} ago, else
 * once that much time has passed (a write wakes a thread of the pool, which costs more than the
 * line). Past 8 KiB the batch goes at once. A batch that comes while a write is under way waits
 * in sonic-boom, which writes it when that write is done. Lines are joined here, not appended
 * to sonic-boom's buffer one by one: it measures its buffered string on every append, which
 * flattened the whole batch per line (the server's largest allocation per request, ~6 KB).
 * What is still gathered when the process exits is written synchronously then; a `kill -9`
 * loses what was not yet written, never a response.
 *
 * Once a write to standard output fails (EPIPE: nobody reads it any more; or any other error),
 * lines are dropped from then on and stderr says so once; the server goes on serving.
 * sonic-boom 5 is used directly rather than through `pino.destination`, whose sonic-boom 4
 * retried such a write every 100 ms forever in the flush at exit, so a server whose log reader
 * had gone never exited, on SIGTERM or otherwise.
 */
function stdout(): pino.DestinationStream {
  const destination = new SonicBoom({ fd: 1, sync: false });
  let lines: string[] = [];
  let failed = false;
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    lines = [];
    const reason = (error as { code?: string } | null)?.code ?? String(error);
    process.stderr.write(
      `Standard output failed (${reason}): log lines are dropped from now on.\n`,
    );
  };
  destination.on('error', fail);
  let characters = 0;
  let queued = false;
  let lastBatch = Number.NEGATIVE_INFINITY;
  const flush = () => {
    queued = false;
    if (failed || lines.length === 0) return;
    lastBatch = performance.now();
    const batch = lines.join('');
    lines = [];
    characters = 0;
    destination.write(batch);
  };
  process.once('exit', () => {
    flush();
    if (failed) return;
    try {
      destination.flushSync();
    } catch (error) {
      fail(error);
    }
  });
  return {
    write(line: string) {
      if (failed) return;
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
