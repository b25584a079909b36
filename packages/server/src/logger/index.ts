import { createRequire } from 'node:module';
import { type Logger, pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { LogFormat, LogLevel } from '../config/index.js';
import { stdoutWriter } from './stdout-writer.js';

export type { Logger } from 'pino';

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
  return level === 'silent' ? pino(options) : pino(options, stdoutWriter());
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
