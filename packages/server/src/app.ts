import type { IncomingMessage } from 'node:http';
import express, { type Express } from 'express';
import { failIfCallerUnknown, identifyCaller } from './caller/index.js';
import type { Clock } from './clock.js';
import type { AppConfig } from './config/index.js';
import { errorHandler } from './errors/index.js';
import {
  getPetDeprecation,
  jsonBody,
  notFound,
  requestId,
  requestLog,
  securityHeaders,
  translateBodyParserError,
  translateExpressError,
} from './http/index.js';
import { anonymousQuota } from './keys/index.js';
import type { Logger } from './logger.js';
import { rateLimit, type RateLimiter } from './rate-limit/index.js';
import { petRoutes, publicRoutes } from './routes/index.js';
import type { Storage } from './storage/index.js';
import { openApiValidation, translateValidatorError } from './validation/index.js';

/** Everything the app needs; `startServer` builds these, tests may pass their own. */
export interface AppDeps {
  storage: Storage;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** Only the settings the app itself uses are read (trust proxy, response validation). */
  config: Pick<AppConfig, 'trustProxy' | 'validateResponses'>;
  /** Requests that get no log line (the start-up warm-up's). */
  quietRequests?: ((req: IncomingMessage) => boolean) | undefined;
}

export type PetstoreApp = Express;

/**
 * Builds the Pet Store app: the middleware order, and nothing else. That order is the design:
 * request id → logging → security headers → public routes (no auth, no limits) →
 * getPet deprecation headers (so every answer of getPet, 429 included, carries them) →
 * identify the caller → rate limit (so 401/404/405 carry X-RateLimit-*) → JSON body →
 * the OpenAPI validator (auth 401, 400, 404, 405, 415) → the operations → 404 → errors.
 *
 * @example
 * ```ts
 * const app = createApp({ storage, limiter, clock: systemClock, logger, config });
 * ```
 */
export function createApp({
  storage,
  limiter,
  logger,
  config,
  quietRequests,
}: AppDeps): PetstoreApp {
  const app = express();
  app.disable('x-powered-by');
  // No ETag/304: the contract documents no conditional requests.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);

  app.use(requestId());
  app.use(requestLog({ logger, ignore: quietRequests }));
  app.use(securityHeaders());
  app.use(publicRoutes(storage));

  // Before anything can refuse the request, so 401, 404 and 429 answers carry the headers too.
  app.all('/v1/pets/:petId', getPetDeprecation());
  app.use(identifyCaller({ keys: storage.keys, anonymousQuota }));
  app.use(rateLimit({ limiter }));
  app.use(failIfCallerUnknown());
  app.use(jsonBody());
  app.use(openApiValidation({ validateResponses: config.validateResponses }));
  app.use(petRoutes(storage));
  app.use(notFound());
  app.use(
    errorHandler({
      logger,
      // body-parser's errors are http-errors too: its translation goes before Express's.
      translators: [translateBodyParserError, translateValidatorError, translateExpressError],
    }),
  );
  return app;
}
