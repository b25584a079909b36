import { hash, randomBytes } from 'node:crypto';

/** Every API key starts with this prefix, so a leaked key is easy to recognise (and scan for). */
export const API_KEY_PREFIX = 'psk_';

/** `psk_` followed by 43 base64url characters: the encoding of 32 random bytes, unpadded. */
export const API_KEY_PATTERN = /^psk_[A-Za-z0-9_-]{43}$/;

/** How many characters of the raw key are kept to recognise it in listings. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

/** A freshly generated key: the raw value is shown once; only `hash` is ever stored. */
export interface GeneratedApiKey {
  raw: string;
  hash: string;
  displayPrefix: string;
}

/**
 * Generates a new API key from 32 random bytes (256 bits of entropy).
 *
 * @example
 * ```ts
 * const { raw, hash, displayPrefix } = generateApiKey();
 * // Store only `hash` (and `displayPrefix`); show `raw` once. `issueApiKey` does both.
 * ```
 */
export function generateApiKey(): GeneratedApiKey {
  const raw = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { raw, hash: hashApiKey(raw), displayPrefix: raw.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/**
 * The hex SHA-256 of a raw key. A fast hash is enough: keys carry 256 random bits, so there is
 * nothing to brute-force, unlike passwords (which would need a slow, salted hash).
 */
export function hashApiKey(raw: string): string {
  return hash('sha256', raw, 'hex');
}

/** Whether `token` has the form of an API key (it may still be unknown or revoked). */
export function isWellFormedApiKey(token: string): boolean {
  return API_KEY_PATTERN.test(token);
}
