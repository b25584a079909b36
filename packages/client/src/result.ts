import type { ErrorBody, Pet } from '@petstore/types';
import { isReplayed } from './headers/idempotency-key.js';
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
  /** From the rate-limit headers; undefined only if a proxy stripped them. */
  rateLimit: RateLimitInfo | undefined;
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

/** How results are completed: the time a response is read at. */
export interface ResultContext {
  now(): number;
}

/** Adds `rateLimit` to an openapi-fetch result. */
export function toResult<Data>(
  result: OpenapiFetchResult<Data>,
  context: ResultContext,
): PetstoreResult<Data> {
  return {
    ...result,
    rateLimit: parseRateLimit(result.response.headers, context.now()),
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
