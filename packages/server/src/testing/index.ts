/**
 * Test support for every package: a real Pet Store server on loopback, over a real SQLite file
 * in a temporary folder, with response validation on and a clock the test controls.
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
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../app.js';
import { generateApiKey } from '../auth/api-key.js';
import { planQuotas } from '../auth/plans.js';
import { createLogger, type Logger } from '../logger.js';
import type { Quota, RateLimiter } from '../rate-limit/limiter.js';
import { openSqliteStorage } from '../storage/sqlite-storage.js';
import type { Plan, Storage } from '../storage/store.js';
import { createPermissiveLimiter } from './permissive-limiter.js';
import { createTestClock, type TestClock } from './test-clock.js';

export { createMemoryRateLimiter } from '../rate-limit/memory-backend.js';
export { createPermissiveLimiter } from './permissive-limiter.js';
export { createTestClock, type TestClock } from './test-clock.js';

export interface TestServerOptions {
  /** The clock the app (and the default limiter) reads; default `createTestClock()`. */
  clock?: TestClock;
  /**
   * The rate limiter (closed by the caller), or a factory given the clock (its limiter is closed
   * by `close`); default: one that allows everything.
   */
  limiter?: RateLimiter | ((clock: TestClock) => RateLimiter);
  /** The SQLite file; default a new file in a temporary folder (removed by `close`). */
  databaseFile?: string;
  /** Wraps the storage the app sees (e.g. to make a method fail). */
  decorateStorage?: (storage: Storage) => Storage;
  /** Response validation (default on: a response that breaks the contract becomes a 500). */
  validateResponses?: boolean;
  /** Express `trust proxy` (default false). */
  trustProxy?: boolean | number | string;
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
   * Stores a new active key and returns the raw key. Default plan `free`; a quota overrides
   * the plan's numbers (enterprise without one gets 10000/minute, 1000000/day).
   */
  createKey(plan?: Plan, quota?: Quota): Promise<string>;
  /** Stops the server, closes the limiter (unless passed in) and storage, removes the temp folder. */
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 and an ephemeral port; resolves once it is listening and warm. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const clock = options.clock ?? createTestClock();
  const tempDir = options.databaseFile ? undefined : mkdtempSync(path.join(tmpdir(), 'petstore-'));
  const databaseFile = options.databaseFile ?? path.join(tempDir as string, 'petstore.db');
  const storage = openSqliteStorage(databaseFile, { clock });
  // A limiter passed in is the caller's to close; one made here (default or factory) is ours.
  const ownLimiter = typeof options.limiter !== 'object';
  const limiter =
    typeof options.limiter === 'function'
      ? options.limiter(clock)
      : (options.limiter ?? createPermissiveLimiter(clock));
  const app = createApp({
    storage: options.decorateStorage ? options.decorateStorage(storage) : storage,
    limiter,
    clock,
    logger: options.logger ?? createLogger('silent'),
    config: {
      trustProxy: options.trustProxy ?? false,
      validateResponses: options.validateResponses ?? true,
    },
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    listening.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  await app.warmUp(url);

  return {
    url,
    baseUrl: `${url}/v1`,
    storage,
    clock,
    limiter,
    async createKey(plan: Plan = 'free', quota?: Quota) {
      const key = generateApiKey();
      const numbers =
        quota ??
        (plan === 'enterprise' ? { perMinute: 10_000, perDay: 1_000_000 } : planQuotas[plan]);
      await storage.keys.create({
        hash: key.hash,
        displayPrefix: key.displayPrefix,
        name: `test ${plan}`,
        plan,
        ...numbers,
      });
      return key.raw;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownLimiter) await limiter.close();
      await storage.close();
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
  };
}
