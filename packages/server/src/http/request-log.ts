import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.js';

export interface RequestLogOptions {
  logger: Logger;
  /** Requests not to log (e.g. the start-up warm-up's internal requests). */
  ignore?: ((req: IncomingMessage) => boolean) | undefined;
}

/**
 * One JSON log line per request, with its request id (`res.locals.requestId`), method, URL,
 * client address and status; 5xx and failures at `error`, the rest at `info`. Lean lines (no
 * header dumps): cheaper on the hot path, and no credentials to redact.
 */
export function requestLog({ logger, ignore }: RequestLogOptions): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => (res as unknown as { locals: Express.Locals }).locals.requestId,
    autoLogging: ignore ? { ignore } : true,
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: {
      req: (req: { id: unknown; method: string; url: string; remoteAddress: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  }) as RequestHandler;
}
