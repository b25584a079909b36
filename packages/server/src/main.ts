/**
 * The server's entry point and the only module that reads `process.env` and listens:
 * config from the environment → storage (migrated) → rate limiter → app → listen → warm up →
 * "listening". SIGTERM/SIGINT stop accepting, finish in-flight requests, then close the
 * limiter and the store.
 */
import { createApp } from './app.js';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig, resolveDatabaseUrl } from './config.js';
import { listen } from './listen.js';
import { createLogger } from './logger.js';
import { openRateLimiter } from './rate-limit/open-rate-limiter.js';
import { openStorage } from './storage/open-storage.js';

/** How long in-flight requests may take to finish after a shutdown signal. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  // npm runs the server inside its workspace; relative paths mean the folder npm was run from.
  const databaseUrl = resolveDatabaseUrl(config.databaseUrl, process.env.INIT_CWD ?? process.cwd());
  const clock = systemClock;
  const storage = await openStorage(databaseUrl, {
    clock,
    onConnectionError: (error) =>
      logger.warn({ err: error }, 'database connection lost; the pool reconnects on next use'),
  });
  const limiter = await openRateLimiter({
    redisUrl: config.redisUrl,
    clock,
    ban: { threshold: config.banThreshold, seconds: config.banSeconds },
    logger,
  });
  const app = createApp({ storage, limiter, clock, logger, config });

  const { server, url } = await listen(app, config.port, config.host);

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
      storage: databaseUrl.startsWith('file:') ? 'sqlite' : 'postgres',
      rateLimits: config.redisUrl ? 'redis' : 'memory',
      validateResponses: config.validateResponses,
    },
    'listening',
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    force.unref();
    // close() stops accepting and resolves once every connection has ended. It closes the
    // idle keep-alive connections of that moment only; a connection whose request finishes
    // later would linger for the keep-alive timeout, so keep closing the idle ones.
    const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    clearInterval(closeIdle);
    await limiter.close();
    await storage.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `The server could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
