import type { ErrorBody } from '@petstore/types';
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError } from './api-error.js';

/**
 * Turns an error of one source (the validator, the body parser, Express, the store…) into the
 * `ApiError` the client sees, or returns undefined when the error is not one of its own. Each
 * source exports its translator next to the code that raises those errors.
 */
export type ErrorTranslator = (error: unknown, req: Request) => ApiError | undefined;

export interface ErrorHandlerOptions {
  logger: Logger;
  /** Tried in order; the first that recognises the error decides. */
  translators: readonly ErrorTranslator[];
  /**
   * Writes the Error body with its status and the error's own headers (the app's JSON writer:
   * `sendJson` of `src/http/`).
   */
  send: (
    res: Response,
    status: number,
    body: ErrorBody,
    headers: Readonly<Record<string, string>>,
  ) => void;
}

/**
 * The one error middleware: picks the translation of the error (an `ApiError` thrown anywhere
 * is already one), logs unexpected failures with the request id, and answers with the
 * documented Error body, its status and headers. Anything no translator recognises is a bug:
 * 500 `internal_error` with no internals.
 */
export function errorHandler({
  logger,
  translators,
  send,
}: ErrorHandlerOptions): ErrorRequestHandler {
  const translate = (err: unknown, req: Request): ApiError => {
    if (err instanceof ApiError) return err;
    for (const translator of translators) {
      const translated = translator(err, req);
      if (translated) return translated;
    }
    return new ApiError('internal_error');
  };
  return (err, req, res, next) => {
    const apiError = translate(err, req);
    if (apiError.status >= 500) {
      logger.error(
        { err, requestId: res.locals.requestId, method: req.method, url: req.originalUrl },
        'unexpected error',
      );
    }
    if (res.headersSent) return next(err);
    send(res, apiError.status, apiError.toBody(), apiError.headers);
  };
}
