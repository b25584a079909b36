import { type RequestHandler, Router } from 'express';
import { docsHtmlFile, openApiJsonFile, openApiYamlFile } from '../contract.js';
import { ApiError } from '../errors/index.js';
import { docsSecurityHeaders } from '../http/index.js';
import type { RateLimiter } from '../rate-limit/index.js';
import type { Storage } from '../storage/index.js';
import { staticFile } from './static-file.js';

/** Answers 405 with `Allow` (RFC 9110 §15.5.6) for the methods a public route lacks. */
const onlyGet: RequestHandler = (_req, _res, next) => {
  next(new ApiError('method_not_allowed', undefined, { Allow: 'GET, HEAD' }));
};

/**
 * How long a browser may use the docs and the description without asking again; after that it
 * revalidates with the ETag (a 304 costs no body).
 */
export const STATIC_MAX_AGE_SECONDS = 300;

export interface PublicRoutesOptions {
  storage: Storage;
  limiter: RateLimiter;
  /** True once the server is shutting down (`/readyz` then answers 503 `draining`). */
  draining?: (() => boolean) | undefined;
}

/**
 * The public routes outside `/v1`: unauthenticated and not rate limited.
 *
 * - `/healthz`: liveness — 200 while the process answers requests, whatever its dependencies.
 * - `/readyz`: readiness — 200 when the store answers (503 when not), with each dependency's
 *   state; Redis being away makes it `degraded`, not unready, since the limiter counts in
 *   memory meanwhile and the service keeps serving. From a shutdown signal on it answers 503
 *   `draining` at once, without asking the store, while every other route still serves: the
 *   load balancer stops sending before the listener closes.
 * - `/openapi.json`, `/openapi.yaml` (the bundled description) and `/docs` (the offline HTML
 *   reference): compressed once (brotli or gzip, as the client accepts), with a strong ETag
 *   per coding (If-None-Match → 304) and `Cache-Control` (`static-file.ts`).
 */
export function publicRoutes({
  storage,
  limiter,
  draining = () => false,
}: PublicRoutesOptions): Router {
  const router = Router();
  const built = (file: string, type: string, missing: string) =>
    staticFile({ file, type, missing, maxAgeSeconds: STATIC_MAX_AGE_SECONDS });
  const missingBundle = 'The bundled description is missing.';
  const openApiJson = built(openApiJsonFile, 'application/json', missingBundle);
  const openApiYaml = built(openApiYamlFile, 'application/yaml', missingBundle);
  const docsHtml = built(
    docsHtmlFile,
    'text/html',
    'The HTML reference is not built: run npm run docs.',
  );

  router
    .route('/healthz')
    .get((_req, res) => {
      res.status(200).json({ status: 'ok' });
    })
    .all(onlyGet);
  router
    .route('/readyz')
    .get(async (_req, res) => {
      if (draining()) {
        res.status(503).json({ status: 'draining' });
        return;
      }
      const store = await storage.ping().then(
        () => 'ok' as const,
        () => 'unreachable' as const,
      );
      const health = limiter.health();
      const rateLimits =
        health.backend === 'memory' ? 'memory' : health.reachable ? 'redis' : 'redis unreachable';
      const status =
        store !== 'ok' ? 'unavailable' : rateLimits === 'redis unreachable' ? 'degraded' : 'ready';
      res.status(store === 'ok' ? 200 : 503).json({ status, checks: { store, rateLimits } });
    })
    .all(onlyGet);
  router.route('/openapi.json').get(openApiJson).all(onlyGet);
  router.route('/openapi.yaml').get(openApiYaml).all(onlyGet);
  router.route('/docs').get(docsSecurityHeaders(), docsHtml).all(onlyGet);
  return router;
}
