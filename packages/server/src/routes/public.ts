import { readFileSync } from 'node:fs';
import compression from 'compression';
import { type RequestHandler, type Response, Router } from 'express';
import { docsHtmlFile, openApiJsonFile, openApiYamlFile } from '../contract.js';
import { ApiError } from '../errors/index.js';
import { docsSecurityHeaders } from '../http/index.js';
import type { RateLimiter } from '../rate-limit/index.js';
import type { Storage } from '../storage/index.js';
import { answerIfNotModified, entityTag } from './entity-tag.js';

/** Answers 405 with `Allow` (RFC 9110 §15.5.6) for the methods a public route lacks. */
const onlyGet: RequestHandler = (_req, _res, next) => {
  next(new ApiError('method_not_allowed', undefined, { Allow: 'GET, HEAD' }));
};

/**
 * How long a browser may use the docs and the description without asking again; after that it
 * revalidates with the ETag (a 304 costs no body).
 */
export const STATIC_MAX_AGE_SECONDS = 300;

/** A built file, read once on first use (the docs may be built after the server starts). */
interface StaticFile {
  content: Buffer;
  etag: string;
}

function staticFile(file: string, missing: string): () => StaticFile {
  let loaded: StaticFile | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    let content: Buffer;
    try {
      content = readFileSync(file);
    } catch {
      throw new ApiError('not_found', missing);
    }
    loaded = { content, etag: entityTag(content.toString('utf8')) };
    return loaded;
  };
}

export interface PublicRoutesOptions {
  storage: Storage;
  limiter: RateLimiter;
}

/**
 * The public routes outside `/v1`: unauthenticated and not rate limited.
 *
 * - `/healthz`: liveness — 200 while the process answers requests, whatever its dependencies.
 * - `/readyz`: readiness — 200 when the store answers (503 when not), with each dependency's
 *   state; Redis being away makes it `degraded`, not unready, since the limiter counts in
 *   memory meanwhile and the service keeps serving.
 * - `/openapi.json`, `/openapi.yaml` (the bundled description) and `/docs` (the offline HTML
 *   reference): compressed (gzip or brotli, as the client accepts), with a strong ETag
 *   (If-None-Match → 304) and `Cache-Control`.
 */
export function publicRoutes({ storage, limiter }: PublicRoutesOptions): Router {
  const router = Router();
  const openApiJson = staticFile(openApiJsonFile, 'The bundled description is missing.');
  const openApiYaml = staticFile(openApiYamlFile, 'The bundled description is missing.');
  const docsHtml = staticFile(docsHtmlFile, 'The HTML reference is not built: run npm run docs.');
  // The compression package negotiates Accept-Encoding (brotli first, then gzip) and adds
  // Vary: Accept-Encoding; only here, not on the API's small JSON answers. Every file here is
  // text, YAML included (which its default filter does not know as compressible).
  const compress = compression({ threshold: 1024, filter: () => true });

  const serve =
    (file: () => StaticFile, type: string) =>
    (req: Parameters<RequestHandler>[0], res: Response) => {
      const { content, etag } = file();
      res.setHeader('Cache-Control', `public, max-age=${STATIC_MAX_AGE_SECONDS}`);
      if (answerIfNotModified(req, res, etag)) return;
      res.type(type).send(content);
    };

  router
    .route('/healthz')
    .get((_req, res) => {
      res.status(200).json({ status: 'ok' });
    })
    .all(onlyGet);
  router
    .route('/readyz')
    .get(async (_req, res) => {
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
  router.route('/openapi.json').get(compress, serve(openApiJson, 'application/json')).all(onlyGet);
  router.route('/openapi.yaml').get(compress, serve(openApiYaml, 'application/yaml')).all(onlyGet);
  router
    .route('/docs')
    .get(docsSecurityHeaders(), compress, serve(docsHtml, 'text/html'))
    .all(onlyGet);
  return router;
}
