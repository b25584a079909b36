import { createHash, timingSafeEqual } from 'node:crypto';
import { type RequestHandler, Router } from 'express';
import { ApiError } from '../errors/index.js';
import type { Metrics } from './metrics.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics`: the Prometheus text exposition, for a scraper that sends
 * `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time); anyone else gets the 404
 * body of an unknown path. Not rate limited, so that 404 lacks the rate-limit headers an unknown
 * path's carries: whether the route exists can be told, what it serves cannot. Mounted only
 * when `METRICS_TOKEN` is set.
 */
export function metricsRoute(metrics: Metrics, token: string): Router {
  const expected = digest(`Bearer ${token}`);
  const authorized: RequestHandler = (req, res, next) => {
    const given = digest(req.headers.authorization ?? '');
    if (timingSafeEqual(given, expected)) return next();
    next(new ApiError('not_found', 'Nothing exists at this path.'));
  };
  const router = Router();
  router.get('/metrics', authorized, async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}
