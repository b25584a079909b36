import type { ApiKeyRecord } from '../domain.js';

/**
 * Where a key stands at an instant: `active`; `expiring` (rotated, still valid until its
 * `expiresAt`); `expired` (its grace period is over); `revoked`. Only the first two are valid.
 */
export type KeyState = 'active' | 'expiring' | 'expired' | 'revoked';

/**
 * The state of `key` at `now` (Unix ms), by the rule of the stores' active-key lookup: a
 * revoked key is refused whatever the time; an expiring one until its `expiresAt`. A cached
 * record stays honest by asking this on each use, so a grace period still ends on time.
 *
 * @example
 * ```ts
 * const valid = ['active', 'expiring'].includes(keyStateAt(record, clock.now()));
 * ```
 */
export function keyStateAt(
  key: Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt'>,
  now: number,
): KeyState {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt === null) return 'active';
  return Date.parse(key.expiresAt) > now ? 'expiring' : 'expired';
}

/** Whether `key` may be used at `now`: it is active or still in its grace period. */
export function isKeyValidAt(
  key: Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt'>,
  now: number,
): boolean {
  const state = keyStateAt(key, now);
  return state === 'active' || state === 'expiring';
}
