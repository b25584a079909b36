import type { ApiKeyRecord } from '../domain.js';
import type { ApiKeyRepository, KeyRotation } from '../storage/index.js';
import { generateApiKey } from './api-key.js';

/**
 * How long a rotated key keeps working by default: one day. Long enough for the holder to roll
 * the new key out everywhere it is used (a daily job runs once in it, every time zone has a
 * working day in it); short enough that a key being retired does not linger. A key thought
 * leaked is rotated with no grace (or revoked).
 */
export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 60 * 60;

/** The longest grace period: 30 days. Beyond that the old key is not being rotated out. */
export const MAX_ROTATION_GRACE_SECONDS = 30 * 24 * 60 * 60;

export interface RotateApiKeyOptions {
  /** Seconds the old key stays valid (0: revoked at once); default one day. */
  graceSeconds?: number | undefined;
}

/** A rotation that happened: the new raw key (shown once) and both records. */
export interface RotatedApiKey {
  kind: 'rotated';
  /** The new raw key: show it once; it is never stored and cannot be recovered. */
  raw: string;
  /** The new key: the old one's plan, quota and name, `replacesId` = the old id. */
  record: ApiKeyRecord;
  /** The old key: `expiresAt` = the end of its grace period, or `revokedAt` = now (no grace). */
  replaced: ApiKeyRecord;
}

/** A rotation that happened, or why not (an unknown id, a revoked key, a key rotated already). */
export type ApiKeyRotation = RotatedApiKey | Exclude<KeyRotation, { kind: 'rotated' }>;

/**
 * Replaces the active key `id` with a new one of the same plan, quota and name, and keeps the
 * old key valid for the grace period, after which it is refused (401); with a grace of 0 the
 * old key is revoked at once. One transaction: either both happen or neither. With `issueApiKey`, the only way keys are made.
 * Throws a `RangeError` (before anything is stored) for a grace that is not a whole number of
 * seconds from 0 to `MAX_ROTATION_GRACE_SECONDS`.
 *
 * @example
 * ```ts
 * const rotation = await rotateApiKey(storage.keys, 3, { graceSeconds: 3600 });
 * if (rotation.kind === 'rotated') console.log(rotation.raw); // shown this once
 * ```
 */
export async function rotateApiKey(
  keys: Pick<ApiKeyRepository, 'rotate'>,
  id: number,
  { graceSeconds = DEFAULT_ROTATION_GRACE_SECONDS }: RotateApiKeyOptions = {},
): Promise<ApiKeyRotation> {
  if (
    !Number.isSafeInteger(graceSeconds) ||
    graceSeconds < 0 ||
    graceSeconds > MAX_ROTATION_GRACE_SECONDS
  ) {
    throw new RangeError(
      `The grace period must be a whole number of seconds from 0 to ${MAX_ROTATION_GRACE_SECONDS} (got ${graceSeconds}).`,
    );
  }
  const key = generateApiKey();
  const rotation = await keys.rotate(
    id,
    { hash: key.hash, displayPrefix: key.displayPrefix },
    graceSeconds * 1000,
  );
  return rotation.kind === 'rotated' ? { ...rotation, raw: key.raw } : rotation;
}
