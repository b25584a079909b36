/**
 * Test support for every package: a real Pet Store server on loopback, over a real SQLite file
 * in a temporary folder (or a PostgreSQL database you name), with response validation on and a clock the test controls. It starts
 * through `startServer`, like `main.ts`, and differs only in what it passes.
 *
 * Import it as `@petstore/server/testing` (resolved to this TypeScript source, so no build is
 * needed under vitest).
 *
 * @example
 * ```ts
 * const server = await startTestServer();
 * const key = await server.createKey('free');
 * const res = await fetch(`${server.baseUrl}/pets`, { headers: { Authorization: `Bearer ${key}` } });
 * await server.close();
 * ```
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CorsOrigins, type HttpLimits, loadConfig } from '../config/index.js';
import type { Plan, Quota } from '../domain.js';
import { issueApiKey } from '../keys/index.js';
import { createLogger, type Logger } from '../logger/index.js';
import type { RateLimiter } from '../rate-limit/index.js';
import { type RunningServer, startServer } from '../server/index.js';
import { openStorage, type Storage } from '../storage/index.js';
import { createPermissiveLimiter } from './permissive-limiter.js';
import { createTestClock, type TestClock } from './test-clock.js';

export { createMemoryRateLimiter } from '../rate-limit/index.js';
export { createPermissiveLimiter } from './permissive-limiter.js';
export { createTestClock, type TestClock } from './test-clock.js';

export interface TestServerOptions {
  /** The clock the app (and the default limiter) reads; default `createTestClock()`. */
  clock?: TestClock;
  /**
   * The rate limiter (closed by the caller), or a factory given the clock (its limiter is closed
   * by `close`); default: one that allows everything.
   */
  limiter?: RateLimiter | ((clock: TestClock) => RateLimiter | Promise<RateLimiter>);
  /** The SQLite file; default a new file in a temporary folder (removed by `close`). */
  databaseFile?: string;
  /**
   * Another store to run on instead of SQLite, e.g. `postgres://…` of a throw-away database
   * (opened and migrated here, closed by `close`; the database itself is the caller's).
   */
  databaseUrl?: string;
  /** Wraps the storage the app sees (e.g. to make a method fail). */
  decorateStorage?: (storage: Storage) => Storage;
  /** Response validation (default on: a response that breaks the contract becomes a 500). */
  validateResponses?: boolean;
  /** Express `trust proxy` (default false). */
  trustProxy?: boolean | number | string;
  /** `CORS_ORIGINS` (default unset: no CORS headers). */
  corsOrigins?: CorsOrigins;
  /** `METRICS_TOKEN` (default unset: no /metrics). */
  metricsToken?: string;
  /** Transport limits to override (default: the server's defaults). */
  http?: Partial<HttpLimits>;
  /** The logger; default silent. */
  logger?: Logger;
}

export interface TestServer {
  /** `http://127.0.0.1:PORT`: the public routes live here. */
  url: string;
  /** `url + '/v1'`: the API's base address. */
  baseUrl: string;
  /** The server's storage (undecorated), to arrange or inspect data directly. */
  storage: Storage;
  clock: TestClock;
  /** The limiter the app uses. */
  limiter: RateLimiter;
  /**
   * Issues a new active key (through `issueApiKey`, as the keys CLI does) and returns the raw
   * key. Default plan `free`; an enterprise key takes `quota` (default 10000/minute,
   * 1000000/day); the other plans have their fixed quotas.
   */
  createKey(plan?: Plan, quota?: Quota): Promise<string>;
  /** Stops the server, closes the limiter (unless passed in) and storage, removes the temp folder. */
  close(): Promise<void>;
}

const defaultEnterpriseQuota: Quota = { perMinute: 10_000, perDay: 1_000_000 };

/** Starts a server on 127.0.0.1 and an ephemeral port; resolves once it is listening and warm. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const clock = options.clock ?? createTestClock();
  const tempDir =
    options.databaseFile || options.databaseUrl
      ? undefined
      : mkdtempSync(path.join(tmpdir(), 'petstore-'));
  const databaseUrl =
    options.databaseUrl ??
    `file:${options.databaseFile ?? path.join(tempDir as string, 'petstore.db')}`;
  const storage = await openStorage(databaseUrl, { clock });
  // A limiter passed in is the caller's to close; one made here (default or factory) is ours.
  const ownLimiter = typeof options.limiter !== 'object';
  const limiter =
    typeof options.limiter === 'function'
      ? await options.limiter(clock)
      : (options.limiter ?? createPermissiveLimiter(clock));
  const config = {
    ...loadConfig({ HOST: '127.0.0.1', PORT: '0' }),
    databaseUrl,
    trustProxy: options.trustProxy ?? false,
    validateResponses: options.validateResponses ?? true,
    corsOrigins: options.corsOrigins,
    metricsToken: options.metricsToken,
  };
  config.http = { ...config.http, ...options.http };
  const closeOwned = async () => {
    if (ownLimiter) await limiter.close();
    await storage.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  };
  let running: RunningServer;
  try {
    running = await startServer({
      config,
      clock,
      storage,
      limiter,
      decorateStorage: options.decorateStorage,
      logger: options.logger ?? createLogger('silent'),
    });
  } catch (error) {
    // A server that could not start (its warm-up answered 5xx, …) leaves nothing open behind.
    await closeOwned();
    throw error;
  }
  const url = running.url;

  return {
    url,
    baseUrl: `${url}/v1`,
    storage,
    clock,
    limiter,
    async createKey(plan: Plan = 'free', quota?: Quota) {
      const { raw } = await issueApiKey(storage.keys, {
        plan,
        name: `test ${plan}`,
        quota: plan === 'enterprise' ? (quota ?? defaultEnterpriseQuota) : quota,
      });
      return raw;
    },
    async close() {
      await running.close({ drainMs: 0, timeoutMs: 0 });
      await closeOwned();
    },
  };
}
