import { readFileSync } from 'node:fs';
import { type RequestHandler, Router } from 'express';
import { ApiError } from '../errors/index.js';
import { docsHtmlFile, openApiJsonFile, openApiYamlFile } from '../contract.js';
import { docsSecurityHeaders } from '../http/index.js';
import type { Storage } from '../storage/index.js';

/** Answers 405 with `Allow` (RFC 9110 §15.5.6) for the methods a public route lacks. */
const onlyGet: RequestHandler = (_req, _res, next) => {
  next(new ApiError('method_not_allowed', undefined, { Allow: 'GET, HEAD' }));
};

/** Reads a built file once, on first use (the docs may be built after the server starts). */
function cachedFile(file: string, missing: string): () => Buffer {
  let content: Buffer | undefined;
  return () => {
    if (content !== undefined) return content;
    try {
      content = readFileSync(file);
    } catch {
      throw new ApiError('not_found', missing);
    }
    return content;
  };
}

/**
 * The public routes outside `/v1`: unauthenticated and not rate limited.
 * `/healthz` (answers 200 when the store answers, else 503), `/openapi.json` and
 * `/openapi.yaml` (the bundled description), `/docs` (the offline HTML reference).
 */
export function publicRoutes(storage: Storage): Router {
  const router = Router();
  const openApiJson = readFileSync(openApiJsonFile);
  const openApiYaml = readFileSync(openApiYamlFile);
  const docsHtml = cachedFile(docsHtmlFile, 'The HTML reference is not built: run npm run docs.');

  router
    .route('/healthz')
    .get(async (_req, res) => {
      try {
        await storage.ping();
        res.status(200).json({ status: 'ok' });
      } catch {
        res.status(503).json({ status: 'unavailable' });
      }
    })
    .all(onlyGet);
  router
    .route('/openapi.json')
    .get((_req, res) => {
      res.type('application/json').send(openApiJson);
    })
    .all(onlyGet);
  router
    .route('/openapi.yaml')
    .get((_req, res) => {
      res.type('application/yaml').send(openApiYaml);
    })
    .all(onlyGet);
  router
    .route('/docs')
    .get(docsSecurityHeaders(), (_req, res) => {
      res.type('text/html').send(docsHtml());
    })
    .all(onlyGet);
  return router;
}
