import {
  createMemoryRateLimiter,
  startTestServer,
  type TestServer,
  type TestServerOptions,
} from '@petstore/server/testing';
import { afterEach } from 'vitest';
import {
  createPetstoreClient,
  type PetstoreClient,
  type PetstoreClientOptions,
} from '../../src/index.js';
import type { Sleep } from '../../src/time.js';

const servers: TestServer[] = [];

/**
 * A real Pet Store server on loopback (real SQLite file, response validation on), closed
 * after the test.
 */
export async function realServer(options?: TestServerOptions): Promise<TestServer> {
  const server = await startTestServer(options);
  servers.push(server);
  return server;
}

/**
 * A real server with the real in-memory rate limiter on the server's clock; a key that
 * gets `banThreshold` 429s within a minute is banned for 900 s.
 */
export async function limitedServer(banThreshold = 20): Promise<TestServer> {
  return realServer({
    limiter: (clock) =>
      createMemoryRateLimiter({ clock, ban: { threshold: banThreshold, seconds: 900 } }),
  });
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/**
 * A sleep that makes time pass on the server's clock instead of waiting: the client's
 * backoff and Retry-After waits are recorded and move the server to the moment the
 * client would send again.
 */
export function serverTimeSleep(server: TestServer): { sleep: Sleep; sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      server.clock.advance(ms);
    },
  };
}

/**
 * A client of `server` that reads the server's clock and sleeps on it. No time limit by
 * default (a time limit is itself a sleep, which would end at once on this clock).
 */
export function clientOf(
  server: TestServer,
  apiKey: string,
  options: Partial<PetstoreClientOptions> = {},
): { client: PetstoreClient; sleeps: number[] } {
  const { sleep, sleeps } = serverTimeSleep(server);
  const client = createPetstoreClient({
    baseUrl: server.baseUrl,
    apiKey,
    clock: server.clock,
    sleep,
    random: () => 0.5,
    timeoutMs: false,
    onDeprecation: () => {},
    ...options,
  });
  return { client, sleeps };
}

/** A well-formed API key the server never issued. */
export const UNKNOWN_KEY = `psk_${'A'.repeat(43)}`;
