import express, { type Request, type Response } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { identifyCaller } from '../../src/caller/index.js';
import { anonymousQuota } from '../../src/keys/index.js';
import { createWarmUpKey, warmUp } from '../../src/server/warm-up.js';
import { openSqliteStorage, type Storage } from '../../src/storage/index.js';
import {
  createPermissiveLimiter,
  createTestClock,
  startTestServer,
} from '../../src/testing/index.js';

describe('the warm-up key', () => {
  let storage: Storage | undefined;
  afterEach(() => storage?.close());

  it('is known until it retires, then unknown even to a cache of key lookups', async () => {
    storage = openSqliteStorage(':memory:');
    const clock = createTestClock();
    const warmUp = createWarmUpKey(storage, clock.now());
    // The clock never moves: only the revision can make the cache forget the key.
    const identify = identifyCaller({
      keys: warmUp.storage.keys,
      revisions: warmUp.storage.revisions,
      clock,
      anonymousQuota,
    });
    const callerKind = async () => {
      const res = { locals: {} } as Response;
      const req = { headers: { authorization: `Bearer ${warmUp.raw}` }, ip: '127.0.0.1' };
      await new Promise<void>((resolve) => void identify(req as Request, res, () => resolve()));
      return res.locals.caller.kind;
    };

    expect(await callerKind()).toBe('key');
    expect(await callerKind()).toBe('key');
    const before = warmUp.storage.revisions().keys;
    warmUp.retire();
    expect(warmUp.storage.revisions().keys).not.toBe(before);
    expect(await callerKind()).toBe('anonymous');
  });
});

describe('the warm-up', () => {
  const getPath = `/v1/pets/${Number.MAX_SAFE_INTEGER}`;
  /** An app answering the warm-up's requests with `status`, and the requests it saw. */
  const appAnswering = (status: (path: string) => number) => {
    const seen: string[] = [];
    const app = express();
    app.use((req, res) => {
      seen.push(`${req.method} ${req.originalUrl}`);
      res.status(status(req.originalUrl)).json({});
    });
    return { app, seen };
  };

  it('passes when the app answers as a working one does (200, 404, 400)', async () => {
    const { app, seen } = appAnswering((path) =>
      path.startsWith('/v1/pets?') ? 200 : path === getPath ? 404 : 400,
    );
    await warmUp(app, 'key');
    expect(seen).toEqual(['GET /v1/pets?limit=1', `GET ${getPath}`, 'POST /v1/pets']);
  });

  it('rejects, naming the request, when the app answers any of them with a 5xx', async () => {
    for (const failing of ['/v1/pets?limit=1', getPath, '/v1/pets']) {
      const { app } = appAnswering((path) => (path === failing ? 500 : 200));
      await expect(warmUp(app, 'key')).rejects.toThrow(
        `The start-up warm-up's ${failing === '/v1/pets' ? 'POST' : 'GET'} ${failing} was answered 500`,
      );
    }
  });

  it('keeps a server whose store answers with a bug from listening, and leaves nothing open', async () => {
    let opened: Storage | undefined;
    let limiterClosed = false;
    const started = startTestServer({
      limiter: (clock) => {
        const limiter = createPermissiveLimiter(clock);
        return {
          ...limiter,
          close: async () => {
            limiterClosed = true;
            await limiter.close();
          },
        };
      },
      decorateStorage: (storage): Storage => {
        opened = storage;
        return {
          ...storage,
          pets: { ...storage.pets, list: () => Promise.reject(new Error('a bug in the store')) },
        };
      },
    });
    await expect(started).rejects.toThrow(
      "The start-up warm-up's GET /v1/pets?limit=1 was answered 500",
    );
    expect(limiterClosed).toBe(true);
    // The store is closed: it answers no more reads.
    await expect(opened!.pets.list({ limit: 1 })).rejects.toThrow();
  });
});
