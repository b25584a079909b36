import type { ApiKeyRecord } from '../domain.js';
import type { KeyRotation } from './store.js';

/**
 * Why the key `found` (looked up by id inside the rotation's transaction) cannot be rotated, or
 * undefined when it can: it is unknown, revoked, or rotated already (in its grace period or
 * past it). No clock is involved. Both adapters decide with this, so they refuse alike.
 */
export function refuseRotation(
  found: ApiKeyRecord | undefined,
): Exclude<KeyRotation, { kind: 'rotated' }> | undefined {
  if (found === undefined) return { kind: 'unknown' };
  if (found.revokedAt !== null) return { kind: 'revoked', key: found };
  if (found.expiresAt !== null) return { kind: 'replaced', key: found };
  return undefined;
}

/**
 * What a rotation at `now` (Unix ms) writes on the old key: with a grace period, when it
 * expires; with none, when it was revoked (now). As ISO 8601 `[revokedAt, expiresAt]`.
 */
export function retirement(now: number, graceMs: number): [string | null, string | null] {
  if (!Number.isSafeInteger(graceMs) || graceMs < 0) {
    throw new RangeError(`A grace period is a whole number of ms, at least 0 (got ${graceMs}).`);
  }
  return graceMs === 0
    ? [new Date(now).toISOString(), null]
    : [null, new Date(now + graceMs).toISOString()];
}
