import type { Storage } from '@petstore/server';
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

/** A promise with its resolver, to let one part of a test wait for another. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

type PetMethod = 'list' | 'createIdempotent';

/**
 * Storage whose first call of `pets[method]` after `arm()` is held until `release()`: a real
 * request that reaches the real server and gets no answer while held. `arrived` resolves when
 * it is held, `finished` when the held call has completed in the store. (Armed after start-up,
 * which warms the validator with a list request.) Every other call goes straight through.
 */
export function stallFirst(method: PetMethod) {
  const arrived = deferred();
  const gate = deferred();
  const finished = deferred();
  let armed = false;
  const decoratePets = (pets: Storage['pets']): Storage['pets'] =>
    new Proxy(pets, {
      get(target, name) {
        const value: unknown = Reflect.get(target, name);
        if (typeof value !== 'function') return value;
        const call = (...args: unknown[]): unknown => Reflect.apply(value, target, args);
        if (name !== method) return call;
        return async (...args: unknown[]) => {
          if (!armed) return call(...args);
          armed = false;
          arrived.resolve();
          await gate.promise;
          try {
            return await call(...args);
          } finally {
            finished.resolve();
          }
        };
      },
    });
  const decorateStorage = (storage: Storage): Storage =>
    new Proxy(storage, {
      get(target, name) {
        if (name === 'pets') return decoratePets(target.pets);
        const value: unknown = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return {
    decorateStorage,
    arrived: arrived.promise,
    finished: finished.promise,
    release: () => gate.resolve(),
    arm: () => {
      armed = true;
    },
  };
}

/**
 * A sleep where the first time limit (ms === limit) ends once `held` resolves (the attempt is
 * held somewhere); later time limits never end by themselves (their attempts are answered);
 * other waits (backoff, Retry-After) run `onWait` if given, then end at once.
 */
export function limitEndsWhen(
  held: Promise<void>,
  limit: number,
  onWait: (ms: number) => Promise<void> | void = () => {},
): Sleep {
  let first = true;
  return async (ms, signal) => {
    if (ms !== limit) return onWait(ms);
    const ends = first;
    first = false;
    return new Promise((resolve, reject) => {
      if (ends) void held.then(() => resolve());
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
}
