import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { ApiKeyRecord } from '../domain.js';
import { generateApiKey } from '../keys/index.js';
import type { Storage } from '../storage/index.js';
import { expressMessageClasses } from './express-messages.js';

/** Marks the warm-up's own requests, so they are not logged. */
const WARM_UP = Symbol('petstore.warmUp');

/** Whether `req` is one of the warm-up's internal requests. */
export const isWarmUpRequest = (req: IncomingMessage): boolean =>
  (req as IncomingMessage & { [WARM_UP]?: true })[WARM_UP] === true;

/**
 * A key that exists only in this process's memory and only until `retire()`: the warm-up's
 * requests authenticate with it, so they reach the validator like real ones, without writing a
 * key to the store. After `retire()` it is unknown, like any other unknown key.
 */
export interface WarmUpKey {
  raw: string;
  /** `storage` whose key lookups also know the warm-up key until it retires. */
  storage: Storage;
  retire(): void;
}

export function createWarmUpKey(storage: Storage, now: number): WarmUpKey {
  const key = generateApiKey();
  let active = true;
  const record: ApiKeyRecord = {
    id: 0,
    name: 'warm-up',
    plan: 'enterprise',
    perMinute: 1_000_000,
    perDay: 1_000_000_000,
    displayPrefix: key.displayPrefix,
    createdAt: new Date(now).toISOString(),
    revokedAt: null,
    expiresAt: null,
    replacesId: null,
  };
  const { keys } = storage;
  return {
    raw: key.raw,
    storage: {
      ...storage,
      keys: {
        ...keys,
        findActiveByHash: (hash) =>
          active && hash === key.hash ? Promise.resolve(record) : keys.findActiveByHash(hash),
      },
      // Retiring is a key change like any other: a cache of key lookups (identifyCaller's)
      // checks the keys' revision and so forgets the warm-up key at once.
      revisions: () => {
        const revisions = storage.revisions();
        return revisions.keys === undefined || active
          ? revisions
          : { ...revisions, keys: revisions.keys + 1 };
      },
    },
    retire() {
      active = false;
    },
  };
}

/**
 * Sends the app a few requests through a private loopback listener, so that the validator
 * compiles its schemas (~300 ms) before the public port opens and the first real request does
 * not pay for it. Reads only, and a create that fails validation: the warm-up never writes.
 *
 * It is also the app's first test of itself: answers 200, 404 and 400 are expected, and a 5xx
 * to any of these requests means every request of its kind would get one (a broken dependency,
 * a store the app cannot read), so the warm-up rejects and the server never listens. The error
 * behind that answer is logged by the app's error handler, just before.
 */
export async function warmUp(app: Express, apiKey: string): Promise<void> {
  // The requests the public server will make, so the code warmed is the code that serves.
  const server = createServer(expressMessageClasses(app), (req, res) => {
    (req as IncomingMessage & { [WARM_UP]?: true })[WARM_UP] = true;
    app(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  try {
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    for (const [method, path, body] of [
      ['GET', '/v1/pets?limit=1', null],
      // An id no store reaches: a 404 whatever the pets, so no stored row decides the start.
      ['GET', `/v1/pets/${Number.MAX_SAFE_INTEGER}`, null],
      ['POST', '/v1/pets', '{}'],
    ] as const) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body });
      await response.arrayBuffer();
      if (response.status >= 500) {
        throw new Error(
          `The start-up warm-up's ${method} ${path} was answered ${response.status}: the app cannot serve the API (its error is logged above), so it does not listen.`,
        );
      }
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
