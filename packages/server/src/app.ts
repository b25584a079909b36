import type { IncomingMessage } from 'node:http';
import express, { type Express } from 'express';
import { identifyCaller, requireCaller } from './caller/index.js';
import type { Clock } from './clock.js';
import type { AppConfig } from './config/index.js';
import { loadDescription } from './contract.js';
import { errorHandler } from './errors/index.js';
import {
  chain,
  corsFor,
  exceptUnderApi,
  getPetDeprecation,
  jsonBody,
  notFound,
  observeResponses,
  onlyUnderApi,
  parseQueryOnce,
  requestId,
  requestLog,
  securityHeaders,
  sendJson,
  translateBodyParserError,
  translateExpressError,
  writeGatheredHeadersOn,
} from './http/index.js';
import { anonymousQuota } from './keys/index.js';
import type { Logger } from './logger/index.js';
import { httpMetrics, type Metrics, metricsRoute } from './metrics/index.js';
import { rateLimit, type RateLimiter } from './rate-limit/index.js';
import { dispatchOperations, petOperations, publicRoutes } from './routes/index.js';
import { type Storage, translateStoreError } from './storage/index.js';
import type { Tracing } from './tracing/index.js';
import {
  createServablePetCheck,
  openApiValidation,
  integerQueryParameters,
  requireIntegerLiterals,
  requireWellFormedStrings,
  translateValidatorError,
} from './validation/index.js';

/** Everything the app needs; `startServer` builds these, tests may pass their own. */
export interface AppDeps {
  storage: Storage;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** Only the settings the app itself uses are read. */
  config: Pick<
    AppConfig,
    'trustProxy' | 'validateResponses' | 'corsOrigins' | 'idempotencyKeyTtlSeconds' | 'metricsToken'
  >;
  /** The server's metrics (requests, rate-limit decisions); startServer instruments the store. */
  metrics: Metrics;
  /** True once the server is shutting down: `/readyz` then answers 503 `draining`. */
  draining?: (() => boolean) | undefined;
  /** Requests that get no log line and no span (the start-up warm-up's). */
  quietRequests?: ((req: IncomingMessage) => boolean) | undefined;
  /** OpenTelemetry tracing (`OTEL_*`); undefined: no span, and nothing of it on the request path. */
  tracing?: Tracing | undefined;
}

export type PetstoreApp = Express;

/**
 * Builds the Pet Store app: the middleware order, and nothing else. That order is the design:
 *
 * 1. the request's span (when tracing) → request id → request log → metrics → security
 *    headers → CORS (when configured);
 * 2. the public routes (no auth, no limits), and `/metrics` when `METRICS_TOKEN` is set;
 * 3. for every other path: getPet's deprecation headers (so every answer of getPet carries
 *    them) → identify the caller → rate limit (so every answer, 401 and 404 included, carries
 *    the rate-limit headers) → require a valid key on API paths (the contract's security: 401
 *    before any body is read); then under `/v1` only: parse the query once and the JSON body →
 *    refuse ill-formed strings and non-decimal integers → the OpenAPI validator (400, 404, 405,
 *    415; HEAD as GET) → the operation it resolved, by operationId (no second routing);
 * 4. 404 for anything else, then the one error handler.
 *
 * Steps 1 to 3 are one Express layer (`chain`): the router's per-layer work (path matching,
 * parameter bookkeeping) buys nothing for steps that run for every path.
 *
 * @example
 * ```ts
 * const app = createApp({ storage, limiter, clock: systemClock, logger, config });
 * ```
 */
export function createApp({
  storage,
  limiter,
  clock,
  logger,
  config,
  metrics,
  draining,
  quietRequests,
  tracing,
}: AppDeps): PetstoreApp {
  const description = loadDescription();
  const app = express();
  // The headers the middleware gathers reach every answer, however its head is written.
  writeGatheredHeadersOn(app.response);
  app.disable('x-powered-by');
  // No automatic ETags: the routes set the contract's own (a page's covers its Link header too).
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  const spans = tracing?.serverSpans(quietRequests);

  app.use(
    chain(
      // 1. Every request.
      ...(spans === undefined ? [] : [spans.handler]),
      requestId(),
      observeResponses(
        requestLog({ logger, ignore: quietRequests, traceFieldsOf: spans?.traceFieldsOf }),
        httpMetrics(metrics),
      ),
      securityHeaders(),
      ...(config.corsOrigins === undefined ? [] : [corsFor(config.corsOrigins, description)]),
      // 2. No public route lies under /v1/: API requests skip them.
      exceptUnderApi(publicRoutes({ storage, limiter, draining })),
      ...(config.metricsToken === undefined ? [] : [metricsRoute(metrics, config.metricsToken)]),
      // 3. Every other path.
      getPetDeprecation(),
      identifyCaller({ keys: storage.keys, revisions: storage.revisions, clock, anonymousQuota }),
      rateLimit({
        limiter,
        onDecision: (outcome) => metrics.rateLimitDecisions.labels(outcome).inc(),
      }),
      requireCaller(description),
      // Only an API path has a body or query to read: elsewhere is a 404, whatever was sent.
      onlyUnderApi(
        chain(
          parseQueryOnce(),
          jsonBody(),
          requireWellFormedStrings(),
          requireIntegerLiterals(integerQueryParameters(description)),
          ...openApiValidation({ validateResponses: config.validateResponses }),
          dispatchOperations(
            petOperations({
              storage,
              validateResponses: config.validateResponses,
              clock,
              idempotencyKeyTtlSeconds: config.idempotencyKeyTtlSeconds,
              servable: createServablePetCheck(),
              logger,
            }),
          ),
        ),
      ),
    ),
  );
  app.use(notFound());
  app.use(
    errorHandler({
      logger,
      // body-parser's errors are http-errors too: its translation goes before Express's.
      translators: [
        translateStoreError,
        translateBodyParserError,
        translateValidatorError,
        translateExpressError,
      ],
      send: (res, status, body, headers) =>
        sendJson(res, status, body, { viaExpress: config.validateResponses, headers }),
    }),
  );
  return app;
}
