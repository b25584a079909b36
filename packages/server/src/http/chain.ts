import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middleware run one after the other as a single Express layer: each calls `next` to go on,
 * `next(error)` (or throws, or rejects) to stop at the error handler. The same contract as
 * `app.use` for each, without the router's per-layer work (path matching, the layer stack) —
 * the hot path's fixed steps need none of it.
 */
export function chain(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null && error !== 'route') return next(error);
      const handler = handlers[index++];
      if (handler === undefined) return next();
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.then(undefined, (reason: unknown) => next(reason));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/**
 * Whether a path is under `/v1`, the API's base. In any letter case, as Express routes
 * (case-insensitive routing, its default).
 */
const API_PATH = /^\/v1(\/|$)/i;
export const isUnderApi = (path: string): boolean => API_PATH.test(path);

/**
 * `handler` for API paths only: elsewhere there is no operation, so a request there is a 404
 * whatever its body or query holds, and its body is never read.
 */
export function onlyUnderApi(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (isUnderApi(req.path) ? handler(req, res, next) : next());
}

/**
 * `handler` for every path except the API's: the public routes (none under `/v1`) need not be
 * walked, route by route, for every API request.
 */
export function exceptUnderApi(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (isUnderApi(req.path) ? next() : handler(req, res, next));
}
