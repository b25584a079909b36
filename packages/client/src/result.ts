import type { ErrorBody, Pet } from '@petstore/types';
import { isReplayed } from './headers/idempotency-key.js';
import { parseRateLimit, type RateLimitInfo } from './headers/rate-limit.js';

/**
 * What every operation resolves to: exactly one of `data` (the documented success body)
 * or `error` (the documented Error body: `code`, `message`, `status`), as openapi-fetch
 * returns them, plus the raw `response`, the parsed rate-limit headers and whether the
 * data came from the cache.
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
  /** The response; after a `304`, the cached `200` with the `304`'s headers. */
  response: Response;
  /** From the rate-limit headers; undefined only if a proxy stripped them. */
  rateLimit: RateLimitInfo | undefined;
  /**
   * True when the server answered `304 Not Modified` to the cache's `If-None-Match` and
   * `data` is the stored copy, revalidated (only with the `cache` option).
   */
  notModified: boolean;
};

/**
 * The result of `createPet`: a `PetstoreResult` plus the `Idempotency-Key` it was sent with
 * and whether the answer replays an earlier create with that key.
 */
export type CreatePetResult = PetstoreResult<Pet> & {
  /** The key sent (yours, or the one the client drew); send it again to retry this create. */
  idempotencyKey: string;
  /** True when the server answered `Idempotent-Replayed: true`: nothing new was created. */
  replayed: boolean;
};

type OpenapiFetchResult<Data> =
  | { data: Data; error?: never; response: Response }
  | { data?: never; error: ErrorBody; response: Response };

/** How results are completed: the time a response is read at, and the cache's revalidations. */
export interface ResultContext {
  now(): number;
  revalidated: WeakSet<Response>;
}

/** Adds `rateLimit` and `notModified` to an openapi-fetch result. */
export function toResult<Data>(
  result: OpenapiFetchResult<Data>,
  context: ResultContext,
): PetstoreResult<Data> {
  return {
    ...result,
    rateLimit: parseRateLimit(result.response.headers, context.now()),
    notModified: context.revalidated.has(result.response),
  };
}

/** `toResult`, plus the key sent and whether the server replayed an earlier create. */
export function toCreateResult(
  result: OpenapiFetchResult<Pet>,
  context: ResultContext,
  idempotencyKey: string,
): CreatePetResult {
  return {
    ...toResult(result, context),
    idempotencyKey,
    replayed: isReplayed(result.response.headers),
  };
}
