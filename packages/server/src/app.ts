import express, { type Express, type RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import { generateApiKey } from './auth/api-key.js';
import { failIfCallerUnknown, identifyCaller } from './auth/identify-caller.js';
import { anonymousQuota } from './auth/plans.js';
import type { Clock } from './clock.js';
import type { AppConfig } from './config.js';
import type { Logger } from './logger.js';
import { getPetDeprecation } from './middleware/deprecation.js';
import { errorHandler } from './middleware/error-handler.js';
import { jsonBody } from './middleware/json-body.js';
import { notFound } from './middleware/not-found.js';
import { openApiValidation } from './middleware/openapi-validator.js';
import { requestId } from './middleware/request-id.js';
import { securityHeaders } from './middleware/security-headers.js';
import type { RateLimiter } from './rate-limit/limiter.js';
import { rateLimit } from './rate-limit/middleware.js';
import { petRoutes } from './routes/pets.js';
import { publicRoutes } from './routes/public.js';
import type { ApiKeyRecord, Storage } from './storage/store.js';

/** Everything the app needs; `main.ts` builds these from the environment, tests build their own. */
export interface AppDeps {
  storage: Storage;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** Only the settings the app itself uses are read (trust proxy, response validation). */
  config: Pick<AppConfig, 'trustProxy' | 'validateResponses'>;
}

/** The Express app, plus the start-up warm-up. */
export interface PetstoreApp extends Express {
  /**
   * Sends a few internal requests to the listening server at `origin` so the validator compiles
   * its schemas before the first real request (~300 ms otherwise). They authenticate with a
   * per-process key that exists only in memory and stops working when the warm-up ends.
   */
  warmUp(origin: string): Promise<void>;
}

const WARM_UP_REQUEST_ID = 'warm-up';

/**
 * Builds the Pet Store app. The middleware order is the design:
 * request id → logging → security headers → public routes (no auth, no limits) →
 * getPet deprecation headers (so every answer of getPet, 429 included, carries them) →
 * identify the caller → rate limit (so 401/404/405 carry X-RateLimit-*) → JSON body →
 * the OpenAPI validator (auth 401, 400, 404, 405, 415) → the operations → 404 → errors.
 * Until `warmUp` has run, an in-memory warm-up key (never shown anywhere) is also accepted.
 *
 * @example
 * ```ts
 * const app = createApp({ storage, limiter, clock: systemClock, logger, config });
 * const server = app.listen(8080, '127.0.0.1', () => app.warmUp('http://127.0.0.1:8080'));
 * ```
 */
export function createApp({ storage, limiter, clock, logger, config }: AppDeps): PetstoreApp {
  const app = express() as PetstoreApp;
  app.disable('x-powered-by');
  // No ETag/304: the contract documents no conditional requests.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);

  const warmUpKey = generateApiKey();
  let warmingUp = true;
  const warmUpRecord: ApiKeyRecord = {
    id: 0,
    name: 'warm-up',
    plan: 'enterprise',
    perMinute: 1_000_000,
    perDay: 1_000_000_000,
    displayPrefix: warmUpKey.displayPrefix,
    createdAt: new Date(clock.now()).toISOString(),
    revokedAt: null,
  };

  app.use(requestId());
  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => res.locals.requestId as string,
      autoLogging: {
        ignore: (req) => warmingUp && req.headers['x-request-id'] === WARM_UP_REQUEST_ID,
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
      // Lean lines (no header dumps): cheaper on the hot path, and no credentials to redact.
      serializers: {
        req: (req: { id: unknown; method: string; url: string; remoteAddress: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
          remoteAddress: req.remoteAddress,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }) as RequestHandler,
  );
  app.use(securityHeaders());
  app.use(publicRoutes(storage));

  // Before anything can refuse the request, so 401, 404 and 429 answers carry the headers too.
  app.all('/v1/pets/:petId', getPetDeprecation());
  app.use(
    identifyCaller({
      keys: storage.keys,
      internalKey: (hash) => (warmingUp && hash === warmUpKey.hash ? warmUpRecord : undefined),
    }),
  );
  app.use(rateLimit({ limiter, anonymousQuota }));
  app.use(failIfCallerUnknown());
  app.use(jsonBody());
  app.use(openApiValidation({ validateResponses: config.validateResponses }));
  app.use(petRoutes(storage));
  app.use(notFound());
  app.use(errorHandler(logger));

  app.warmUp = async (origin: string) => {
    const headers = {
      Authorization: `Bearer ${warmUpKey.raw}`,
      'X-Request-Id': WARM_UP_REQUEST_ID,
      'Content-Type': 'application/json',
    };
    try {
      // Reads only, and a create that fails validation: the warm-up never writes.
      for (const [method, path, body] of [
        ['GET', '/v1/pets?limit=1', null],
        ['GET', '/v1/pets/1', null],
        ['POST', '/v1/pets', '{}'],
      ] as const) {
        const response = await fetch(new URL(path, origin), { method, headers, body });
        await response.arrayBuffer();
      }
    } finally {
      warmingUp = false;
    }
  };
  return app;
}
