import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  issueApiKey,
  MAX_ROTATION_GRACE_SECONDS,
  rotateApiKey,
  type RotatedApiKey,
} from '../../src/keys/index.js';
import { openSqliteStorage, type Storage } from '../../src/storage/index.js';
import { createTestClock, type TestServer } from '../../src/testing/index.js';
import { expectError } from '../support/contract.js';
import { get } from '../support/requests.js';
import { serverOnEachStore } from '../support/server-on-each-store.js';

function rotated(rotation: Awaited<ReturnType<typeof rotateApiKey>>): RotatedApiKey {
  if (rotation.kind !== 'rotated') throw new Error(`expected a rotation, got ${rotation.kind}`);
  return rotation;
}

describe.each(serverOnEachStore)('a rotated key over HTTP on $name', (store) => {
  let server: TestServer;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ server, stop } = await store.start());
  });
  afterAll(() => stop());

  it('keeps answering 200 to the old key until the grace ends, then 401; the new key works with the same limits', async () => {
    const old = await issueApiKey(server.storage.keys, { plan: 'pro', name: 'partner' });
    const { raw, record, replaced } = rotated(
      await rotateApiKey(server.storage.keys, old.record.id, { graceSeconds: 3600 }),
    );
    expect(record).toMatchObject({ plan: 'pro', perMinute: 300, name: 'partner' });
    const graceEnds = Date.parse(replaced.expiresAt ?? '');
    expect(graceEnds).toBe(server.clock.now() + 3_600_000);

    expect((await get(server, old.raw, '/v1/pets')).status).toBe(200);
    server.clock.set(graceEnds - 1);
    expect((await get(server, old.raw, '/v1/pets')).status).toBe(200);

    server.clock.set(graceEnds);
    await expectError(await get(server, old.raw, '/v1/pets'), 401, 'unauthorized');
    const fresh = await get(server, raw, '/v1/pets');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('X-RateLimit-Limit')).toBe('300');
  });

  it('answers 401 to the old key at once when rotated with no grace; the new key works', async () => {
    const old = await issueApiKey(server.storage.keys, { plan: 'free' });
    const { raw } = rotated(
      await rotateApiKey(server.storage.keys, old.record.id, { graceSeconds: 0 }),
    );

    await expectError(await get(server, old.raw, '/v1/pets'), 401, 'unauthorized');
    expect((await get(server, raw, '/v1/pets')).status).toBe(200);
  });
});

describe('rotateApiKey', () => {
  let storage: Storage;
  const clock = createTestClock();

  beforeAll(() => {
    storage = openSqliteStorage(':memory:', { clock });
  });
  afterAll(() => storage.close());

  it('gives the old key one day of grace by default', async () => {
    const old = await issueApiKey(storage.keys, { plan: 'free' });

    const { replaced } = rotated(await rotateApiKey(storage.keys, old.record.id));

    expect(Date.parse(replaced.expiresAt ?? '')).toBe(clock.now() + 24 * 3_600_000);
  });

  it('returns the new raw key once, matching the stored prefix and never stored itself', async () => {
    const old = await issueApiKey(storage.keys, { plan: 'free' });

    const { raw, record } = rotated(await rotateApiKey(storage.keys, old.record.id));

    expect(raw).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    expect(raw.startsWith(record.displayPrefix)).toBe(true);
    expect(JSON.stringify(await storage.keys.list())).not.toContain(raw);
  });

  it.each([-1, 1.5, MAX_ROTATION_GRACE_SECONDS + 1, Number.NaN])(
    'refuses a grace of %s seconds, storing nothing',
    async (graceSeconds) => {
      const old = await issueApiKey(storage.keys, { plan: 'free' });
      const before = await storage.keys.list();

      await expect(rotateApiKey(storage.keys, old.record.id, { graceSeconds })).rejects.toThrow(
        `The grace period must be a whole number of seconds from 0 to ${MAX_ROTATION_GRACE_SECONDS}`,
      );
      expect(await storage.keys.list()).toEqual(before);
    },
  );
});
