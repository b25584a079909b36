import { describe, expect, it } from 'vitest';
import { KeyCache } from '../../src/caller/index.js';
import type { ApiKeyRecord } from '../../src/domain.js';

const record = (overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: 1,
  name: null,
  plan: 'free',
  perMinute: 60,
  perDay: 1000,
  displayPrefix: 'psk_AbC1',
  createdAt: '2030-01-01T00:00:00.000Z',
  revokedAt: null,
  expiresAt: null,
  replacesId: null,
  ...overrides,
});
const now = Date.parse('2030-01-01T12:00:00Z');

describe('KeyCache', () => {
  it('answers from memory while the key revision is the one it was stored under', () => {
    const cache = new KeyCache();
    cache.set('psk_a', record(), 7, now);
    expect(cache.get('psk_a', 7, now + 1_000)).toEqual(record());
    expect(cache.get('psk_b', 7, now)).toBeUndefined();
  });

  it.each([
    ['the revision moved (a key changed somewhere)', 8, now + 1_000],
    ['the revision is unknown (not listening)', undefined, now + 1_000],
    ['5 s have passed', 7, now + 5_000],
    ['the clock went back', 7, now - 1],
  ])('forgets an entry when %s', (_case, revision, at) => {
    const cache = new KeyCache();
    cache.set('psk_a', record(), 7, now);
    expect(cache.get('psk_a', revision, at)).toBeUndefined();
    expect(cache.get('psk_a', 7, now + 1)).toBeUndefined();
  });

  it('ends a rotated key’s grace period on time, though nothing changed in the store', () => {
    const cache = new KeyCache();
    const expiring = record({ expiresAt: new Date(now + 2_000).toISOString() });
    cache.set('psk_a', expiring, 7, now);
    expect(cache.get('psk_a', 7, now + 1_999)).toEqual(expiring);
    expect(cache.get('psk_a', 7, now + 2_000)).toBeUndefined();
  });

  it('stores nothing while the revision is unknown, and keeps at most maxEntries keys', () => {
    const cache = new KeyCache({ maxEntries: 2 });
    cache.set('psk_x', record(), undefined, now);
    expect(cache.get('psk_x', 1, now)).toBeUndefined();
    cache.set('psk_a', record({ id: 1 }), 1, now);
    cache.set('psk_b', record({ id: 2 }), 1, now);
    cache.set('psk_c', record({ id: 3 }), 1, now);
    expect(cache.get('psk_a', 1, now)).toBeUndefined();
    expect(cache.get('psk_c', 1, now)?.id).toBe(3);
  });
});
