/**
 * `npm run mock`: the real server (same app, validation and rate limits) on an in-memory
 * SQLite store seeded from the description's examples, with a sandbox key printed at start.
 * Stateful, unlike example-only mocks: a pet you create is in the next list. Nothing is kept
 * after it stops. PORT, HOST and LOG_LEVEL apply (default LOG_LEVEL here: warn).
 */
import { createApp } from '../app.js';
import { systemClock } from '../clock.js';
import { ConfigError, loadConfig } from '../config.js';
import { listen } from '../listen.js';
import { createLogger } from '../logger.js';
import { openRateLimiter } from '../rate-limit/open-rate-limiter.js';
import { openStorage } from '../storage/open-storage.js';
import { sandboxPlan, seedMockStore } from './mock-server.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig({ LOG_LEVEL: 'warn', ...process.env, DATABASE_URL: 'file::memory:' });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  const clock = systemClock;
  const storage = await openStorage('file::memory:', { clock });
  const { pets, key } = await seedMockStore(storage);
  // Always in-process limits: the mock is one process and must not share Redis counters.
  const limiter = await openRateLimiter({
    redisUrl: undefined,
    clock,
    ban: { threshold: config.banThreshold, seconds: config.banSeconds },
    logger,
  });
  const app = createApp({ storage, limiter, clock, logger, config });
  const { server, url } = await listen(app, config.port, config.host);

  process.stdout.write(
    [
      `Pet Store mock: the real server on an in-memory store (nothing is kept after it stops)`,
      `  seeded with ${pets.length} animals from the description's examples: ${pets.map((p) => `${p.name} (id ${p.id})`).join(', ')}`,
      `  API:  ${url}/v1`,
      `  Docs: ${url}/docs`,
      `  try:  curl -H "Authorization: Bearer $PETSTORE_API_KEY" ${url}/v1/pets`,
      `Sandbox API key (${sandboxPlan} plan):`,
      key,
      '',
    ].join('\n'),
  );

  const shutdown = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await limiter.close();
    await storage.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  process.stderr.write(
    `The mock could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
