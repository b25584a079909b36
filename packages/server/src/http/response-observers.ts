import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler, Response } from 'express';

/** Told about each response once it is sent, with the milliseconds since the request arrived. */
export type ResponseObserver = (req: Request, res: Response, elapsedMs: number) => void;

/**
 * Runs every observer (the request log, the HTTP metrics) once the response is sent, from one
 * `finish` listener and one clock reading per request instead of one of each per observer.
 */
export function observeResponses(...observers: ResponseObserver[]): RequestHandler {
  return (req, res, next) => {
    const start = performance.now();
    // `on`, not `once`: 'finish' is emitted once, and `once` wraps the listener per request.
    res.on('finish', () => {
      const elapsedMs = performance.now() - start;
      for (const observe of observers) observe(req, res, elapsedMs);
    });
    next();
  };
}
