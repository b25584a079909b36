/**
 * The caller's rate-limit state, from the `X-RateLimit-*` headers every response carries
 * (the window with the fewest remaining requests).
 */
export interface RateLimitInfo {
  /** The limit of the window described. */
  limit: number;
  /** Requests left in that window. */
  remaining: number;
  /** When that window resets (`X-RateLimit-Reset` is in Unix seconds). */
  reset: Date;
}

const NON_NEGATIVE_INTEGER = /^\d+$/;

function integerHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)?.trim();
  if (value === undefined || !NON_NEGATIVE_INTEGER.test(value)) return undefined;
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

/**
 * Reads `X-RateLimit-Limit`, `-Remaining` and `-Reset`; undefined when any is missing or
 * not a non-negative integer (a proxy may strip them), so callers never see half a state.
 *
 * @example
 * ```ts
 * const info = parseRateLimit(response.headers);
 * if (info && info.remaining === 0) console.log(`wait until ${info.reset.toISOString()}`);
 * ```
 */
export function parseRateLimit(headers: Headers): RateLimitInfo | undefined {
  const limit = integerHeader(headers, 'X-RateLimit-Limit');
  const remaining = integerHeader(headers, 'X-RateLimit-Remaining');
  const resetSeconds = integerHeader(headers, 'X-RateLimit-Reset');
  if (limit === undefined || remaining === undefined || resetSeconds === undefined) {
    return undefined;
  }
  return { limit, remaining, reset: new Date(resetSeconds * 1000) };
}
