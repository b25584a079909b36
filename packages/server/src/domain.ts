/**
 * The domain types every part of the server shares: plans and quotas, API key records, and the
 * subject the rate limiter counts. `keys/`, `caller/`, `storage/` and `rate-limit/` import them
 * from here as peers; none of them owns them.
 */

/** The plans of the specification (section 8). */
export type Plan = 'free' | 'pro' | 'business' | 'enterprise';

/** How many requests a caller may make per clock minute and per UTC day. */
export interface Quota {
  perMinute: number;
  perDay: number;
}

/** An API key as stored: never the raw key, only its SHA-256 hash. */
export interface ApiKeyRecord {
  id: number;
  name: string | null;
  plan: Plan;
  perMinute: number;
  perDay: number;
  /** The first characters of the raw key (e.g. `psk_AbC1`), to recognise it in listings. */
  displayPrefix: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601 when the key was revoked: refused from then on, whatever the clock says. */
  revokedAt: string | null;
  /**
   * ISO 8601 when a rotated key's grace period ends: valid before, refused from then on (the
   * clock decides, `keyStateAt` in `keys/`). Null when the key does not expire.
   */
  expiresAt: string | null;
  /** The id of the key this one replaced (`keys rotate`), or null for a key created anew. */
  replacesId: number | null;
}

/** What is stored to create a key. */
export interface NewApiKey {
  /** Hex SHA-256 of the raw key. */
  hash: string;
  displayPrefix: string;
  name: string | null;
  plan: Plan;
  perMinute: number;
  perDay: number;
}

/**
 * Who the rate limiter counts: an API key, or — for callers without a valid key — their client
 * address. Only keys can be banned (the specification bans API keys; an address may be shared
 * by many people behind one NAT).
 */
export type Subject =
  | { readonly kind: 'key'; readonly keyId: number }
  | { readonly kind: 'address'; readonly address: string };

/** The quota of a stored key. */
export function quotaOf(key: Pick<ApiKeyRecord, 'perMinute' | 'perDay'>): Quota {
  return { perMinute: key.perMinute, perDay: key.perDay };
}
