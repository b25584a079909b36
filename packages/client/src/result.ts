import type { ErrorBody } from '@petstore/types';
import { parseRateLimit, type RateLimitInfo } from './headers/rate-limit.js';

/**
 * What every operation resolves to: exactly one of `data` (the documented success body)
 * or `error` (the documented Error body: `code`, `message`, `status`), as openapi-fetch
 * returns them, plus the raw `response` and the parsed rate-limit headers.
 *
 * @example
 * ```ts
 * const { data, error, rateLimit } = await client.getPet(10);
 * if (error) console.log(error.code); // 'not_found' | 'unauthorized' | …
 * else console.log(data.name, rateLimit?.remaining);
 * ```
 */
export type PetstoreResult<Data> = (
  { data: Data; error?: never } | { data?: never; error: ErrorBody }
) & {
  response: Response;
  /** From the `X-RateLimit-*` headers; undefined only if a proxy stripped them. */
  rateLimit: RateLimitInfo | undefined;
};

/** Adds `rateLimit` to an openapi-fetch result. */
export function withRateLimit<Data>(
  result:
    | { data: Data; error?: never; response: Response }
    | { data?: never; error: ErrorBody; response: Response },
): PetstoreResult<Data> {
  return { ...result, rateLimit: parseRateLimit(result.response.headers) };
}
