/**
 * `npm run mock`: the real server (same app, validation and rate limits) on an in-memory
 * SQLite store seeded from the description's examples, with a sandbox key printed at start.
 * Stateful, unlike example-only mocks: a pet you create is in the next list. Nothing is kept
 * after it stops. PORT, HOST, LOG_LEVEL and LOG_FORMAT apply (defaults here: warn, and
 * pino-pretty's readable lines), and no drain on shutdown (SHUTDOWN_DRAIN_SECONDS=0).
 */
import '../runtime/index.js';
import { ConfigError, loadConfig } from '../config/index.js';
import { closeOnSignals, startServer } from '../server/index.js';
import { openStorage } from '../storage/index.js';
import { sandboxPlan, seedMockStore } from './index.js';

let config;
try {
  // Always in-process limits and an in-memory store: the mock is one process on its own, with
  // no load balancer to drain from (SHUTDOWN_DRAIN_SECONDS still applies when set).
  config = loadConfig({
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'pretty',
    SHUTDOWN_DRAIN_SECONDS: '0',
    ...process.env,
    DATABASE_URL: 'file::memory:',
    REDIS_URL: undefined,
  });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

try {
  const storage = await openStorage(config.databaseUrl);
  const { pets, key } = await seedMockStore(storage);
  const running = await startServer({ config, storage });
  const { url } = running;
  process.stdout.write(
    [
      `Pet Store mock: the real server on an in-memory store (nothing is kept after it stops)`,
      `  seeded with ${pets.length} animals from the description's examples: ${pets.map((p) => `${p.name} (id ${p.id})`).join(', ')}`,
      `  API:  ${url}/v1`,
      `  Docs: ${url}/docs`,
      `  try:  curl -H "Authorization: Bearer ${key}" ${url}/v1/pets`,
      `Sandbox API key (${sandboxPlan} plan):`,
      key,
      '',
    ].join('\n'),
  );
  closeOnSignals(running);
} catch (error) {
  process.stderr.write(
    `The mock could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
