import type { Request, Response } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { identifyCaller } from '../../src/caller/index.js';
import { anonymousQuota } from '../../src/keys/index.js';
import { createWarmUpKey } from '../../src/server/warm-up.js';
import { openSqliteStorage, type Storage } from '../../src/storage/index.js';
import { createTestClock } from '../../src/testing/index.js';

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
