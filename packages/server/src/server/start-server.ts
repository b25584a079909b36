import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type PetstoreApp } from '../app.js';
import { type Clock, systemClock } from '../clock.js';
import type { AppConfig, ShutdownTimes } from '../config/index.js';
import { anonymousQuota } from '../keys/index.js';
import { createLogger, type Logger } from '../logger/index.js';
import { createMetrics, instrumentStorage, type Metrics } from '../metrics/index.js';
import { openRateLimiter, type RateLimiter } from '../rate-limit/index.js';
import { openStorage, type Storage, wrapServedCalls } from '../storage/index.js';
import type { Tracing } from '../tracing/index.js';
import { answerClientErrors } from './client-errors.js';
import { createHttpServer } from './http-server.js';
import { shutDown } from './shutdown.js';
import { createWarmUpKey, isWarmUpRequest, warmUp } from './warm-up.js';

export interface StartServerOptions {
  /** The validated configuration (`loadConfig`); `databaseUrl` must already be resolved. */
  config: AppConfig;
  /** Default: `config.logFormat` lines at `config.logLevel` on stdout. */
  logger?: Logger | undefined;
  /** Default: the system clock. */
  clock?: Clock | undefined;
  /** A store to use instead of opening `config.databaseUrl`; the caller closes it. */
  storage?: Storage | undefined;
  /** A limiter to use instead of opening one from `config`; the caller closes it. */
  limiter?: RateLimiter | undefined;
  /** Wraps the store the app sees (tests make a method fail with it). */
  decorateStorage?: ((storage: Storage) => Storage) | undefined;
}

export interface RunningServer {
  /** Where the server listens, as a URL (`http://0.0.0.0:8080` when on all interfaces). */
  url: string;
  server: Server;
  app: PetstoreApp;
  storage: Storage;
  limiter: RateLimiter;
  logger: Logger;
  metrics: Metrics;
  /** The configured shutdown times (`SHUTDOWN_DRAIN_SECONDS`, `SHUTDOWN_TIMEOUT_SECONDS`). */
  shutdown: ShutdownTimes;
  /**
   * The first step of a shutdown alone: `/readyz` answers 503 `draining` and every response
   * says `Connection: close`, while everything is still served. `close` begins with it.
   */
  startDraining(): void;
  /**
   * Graceful shutdown (`shutDown`): drains for `drainMs`, stops accepting, answers what is in
   * flight (cutting what still runs `timeoutMs` - 1 s after the call), then closes the limiter
   * and the store if this server opened them. Defaults: the configured times. Idempotent: a
   * second call waits for the first. `{ drainMs: 0, timeoutMs: 0 }` stops at once (tests).
   */
  close(options?: Partial<ShutdownTimes>): Promise<void>;
}

/**
 * Starts the Pet Store server: opens the store (migrated) and the rate limiter, builds the app,
 * warms the validator up on a private loopback listener, then listens on `config.host:port`
 * and logs `listening`. The one way a server starts: `main.ts`, the mock and the tests'
 * `startTestServer` all come through here and differ only in what they pass.
 *
 * @example
 * ```ts
 * const running = await startServer({ config: loadConfig(process.env) });
 * closeOnSignals(running);
 * ```
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const tracing = await openTracing(config);
  const logger =
    options.logger ??
    createLogger(config.logLevel, { format: config.logFormat, mixin: tracing?.logMixin });
  tracing?.reportTo(logger);
  const clock = options.clock ?? systemClock;
  // The store reports to the metrics, which read the limiter, which opens after the store.
  const opened: { limiter?: RateLimiter } = {};
  const metrics = createMetrics({
    limiterHealth: () => opened.limiter?.health() ?? { backend: 'memory' },
  });
  const storage =
    options.storage ??
    (await openStorage(config.databaseUrl, {
      clock,
      poolSize: config.databasePoolSize,
      onGroupCommitted: (size) => metrics.writeGroupSize.observe(size),
      onConnectionError: (error) =>
        logger.warn({ err: error }, 'database connection lost; the pool reconnects on next use'),
    }));
  const limiter =
    options.limiter ??
    (await openRateLimiter({
      redisUrl: config.redisUrl,
      clock,
      ban: { threshold: config.banThreshold, seconds: config.banSeconds },
      logger,
      wrapCounter: tracing?.redisCounters,
    }));
  opened.limiter = limiter;
  const closeOwned = async () => {
    if (!options.limiter) await limiter.close();
    if (!options.storage) await storage.close();
    // Last: the spans of the requests just drained are exported before the process ends.
    await tracing?.shutdown();
  };

  try {
    const timed = instrumentStorage(storage, metrics);
    const instrumented = tracing ? wrapServedCalls(timed, tracing.storeCalls) : timed;
    const warmUpKey = createWarmUpKey(
      options.decorateStorage ? options.decorateStorage(instrumented) : instrumented,
      clock.now(),
    );
    let draining = false;
    const app = createApp({
      draining: () => draining,
      storage: warmUpKey.storage,
      limiter,
      clock,
      logger,
      config,
      metrics,
      quietRequests: isWarmUpRequest,
      tracing,
    });
    try {
      await warmUp(app, warmUpKey.raw);
    } finally {
      warmUpKey.retire();
      // The warm-up's requests, decisions and store calls are not the service's: start at zero.
      metrics.registry.resetMetrics();
    }

    const { server, stopKeepingAlive } = createHttpServer(app, config.http);
    answerClientErrors(server, { limiter, anonymousQuota });
    server.listen(config.port, config.host);
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error as Error)),
    ]);
    const { address, family, port } = server.address() as AddressInfo;
    const url = `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;

    if ((await storage.keys.countActive()) === 0) {
      logger.warn(
        'No active API key yet: create one with `npm run --silent keys -- create --plan free` ' +
          '(same DATABASE_URL); the raw key is printed once.',
      );
    }
    logger.info(
      {
        url,
        docs: `${url}/docs`,
        storage: config.databaseUrl.startsWith('file:') ? 'sqlite' : 'postgres',
        rateLimits: config.redisUrl ? 'redis' : 'memory',
        validateResponses: config.validateResponses,
      },
      'listening',
    );

    const stopPurging = purgeIdempotencyKeysRegularly(instrumented, clock, logger);
    const startDraining = () => {
      draining = true;
      stopKeepingAlive();
    };
    let closing: Promise<void> | undefined;
    return {
      url,
      server,
      app,
      storage,
      limiter,
      logger,
      metrics,
      shutdown: config.shutdown,
      startDraining,
      close(times = {}) {
        stopPurging();
        closing ??= shutDown(
          { server, logger, startDraining, closeOwned },
          { ...config.shutdown, ...times },
        );
        return closing;
      },
    };
  } catch (error) {
    await closeOwned();
    throw error;
  }
}

/**
 * Tracing as `config.tracing` asks (the `OTEL_*` variables), or undefined. Chosen once, at
 * start-up: without it the OpenTelemetry SDK is never loaded (`import()` only here), and no
 * layer of the request path holds anything of it.
 */
async function openTracing(config: AppConfig): Promise<Tracing | undefined> {
  if (config.tracing === undefined) return undefined;
  const { startTracing } = await import('../tracing/index.js');
  return startTracing(config.tracing, {
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
  });
}

/** How often expired `Idempotency-Key` records are deleted. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes expired idempotency records now and every hour, off the request path (a key that
 * expired is already ignored by lookups; this only reclaims space). Returns how to stop.
 */
function purgeIdempotencyKeysRegularly(storage: Storage, clock: Clock, logger: Logger): () => void {
  const purge = () =>
    void storage.pets.purgeExpiredIdempotencyKeys(clock.now()).then(
      (count) => count > 0 && logger.info({ count }, 'expired idempotency keys deleted'),
      (error: unknown) => logger.warn({ err: error }, 'could not delete expired idempotency keys'),
    );
  purge();
  const timer = setInterval(purge, PURGE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
