import { describe, expect, it } from 'vitest';
import { isKeyValidAt, keyStateAt, type KeyState } from '../../src/keys/index.js';

const at = Date.parse('2030-01-01T12:00:00.000Z');

describe('the state of a key at an instant', () => {
  it.each<[string, string | null, string | null, KeyState, boolean]>([
    ['never revoked nor rotated', null, null, 'active', true],
    [
      'rotated, grace ending a millisecond later',
      null,
      '2030-01-01T12:00:00.001Z',
      'expiring',
      true,
    ],
    ['rotated, grace ending now', null, '2030-01-01T12:00:00.000Z', 'expired', false],
    ['rotated, grace over', null, '2030-01-01T11:00:00.000Z', 'expired', false],
    ['revoked', '2030-01-01T11:00:00.000Z', null, 'revoked', false],
    [
      'revoked during its grace',
      '2030-01-01T11:00:00.000Z',
      '2030-01-02T00:00:00.000Z',
      'revoked',
      false,
    ],
    // A revocation counts whatever its time says: another machine's clock may be ahead.
    ['revoked by a clock ahead of this one', '2030-01-01T12:05:00.000Z', null, 'revoked', false],
  ])('is told from the record: %s', (_, revokedAt, expiresAt, state, valid) => {
    expect(keyStateAt({ revokedAt, expiresAt }, at)).toBe(state);
    expect(isKeyValidAt({ revokedAt, expiresAt }, at)).toBe(valid);
  });
});
