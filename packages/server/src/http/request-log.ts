import type { IncomingMessage } from 'node:http';
import type { Response } from 'express';
import type { Logger } from '../logger/index.js';
import type { ResponseObserver } from './response-observers.js';

export interface RequestLogOptions {
  logger: Logger;
  /** Requests not to log (e.g. the start-up warm-up's internal requests). */
  ignore?: ((req: IncomingMessage) => boolean) | undefined;
  /** When tracing: the ids of the request's span (`trace_id`, `span_id`, `trace_flags`). */
  traceFieldsOf?: ((res: Response) => object | undefined) | undefined;
}

/**
 * One JSON log line per request once its response is sent (an observer for
 * `observeResponses`): its id (`res.locals.requestId`), method, URL, client address, status
 * and time taken — `request completed` at `info`, or `request errored` at `error` for a 5xx —
 * and, when tracing, the ids of its span. A lean line written straight through pino (no child
 * logger per request, no header dumps): cheap on the hot path, and no credentials to redact.
 */
export function requestLog({ logger, ignore, traceFieldsOf }: RequestLogOptions): ResponseObserver {
  // The line holds no header, so it skips the logger's redaction (which would otherwise walk
  // every line's `req`).
  const lines = logger.child({}, { redact: [] });
  return (req, res, elapsedMs) => {
    if (ignore?.(req)) return;
    const { statusCode } = res;
    const line = {
      req: {
        id: res.locals.requestId,
        method: req.method,
        url: req.originalUrl,
        remoteAddress: req.socket.remoteAddress,
      },
      res: { statusCode },
      responseTime: Math.round(elapsedMs * 1000) / 1000,
    };
    // Without tracing: one test of a constant, and the line keeps its one shape.
    if (traceFieldsOf !== undefined) Object.assign(line, traceFieldsOf(res));
    if (statusCode >= 500) lines.error(line, 'request errored');
    else lines.info(line, 'request completed');
  };
}
