/**
 * The typed client of the Pet Store API.
 *
 * @example
 * ```ts
 * import { createPetstoreClient } from '@petstore/client';
 * const client = createPetstoreClient({ baseUrl: 'https://api.petstore.example/v1', apiKey });
 * const { data: pets } = await client.listPets({ status: 'available', limit: 10 });
 * ```
 */
export {
  type CachedRepresentation,
  ConditionalCache,
  type ConditionalCacheOptions,
  type ConditionalCacheStore,
} from './cache/conditional-cache.js';
export {
  type CallOptions,
  type CreatePetOptions,
  createPetstoreClient,
  type PetstoreClient,
  type PetstoreClientOptions,
} from './create-client.js';
export {
  AbortedError,
  type GiveUpReason,
  NetworkError,
  PetstoreApiError,
  PetstoreClientError,
  type RetryBudgetExceededDetails,
  RetryBudgetExceededError,
  TimeoutError,
} from './errors.js';
export { type DeprecationInfo, parseDeprecation } from './headers/deprecation.js';
export { findLink } from './headers/link.js';
export { isReplayed, newIdempotencyKey } from './headers/idempotency-key.js';
export {
  parseRateLimit,
  parseRateLimitWindows,
  type RateLimitInfo,
  type RateLimitWindow,
} from './headers/rate-limit.js';
export { parseRetryAfter } from './headers/retry-after.js';
export { bearerAuth } from './middleware/auth.js';
export {
  type DeprecationNotice,
  defaultOnDeprecation,
  deprecationWarnings,
  formatDeprecationWarning,
  type OnDeprecation,
  warnOncePerOperation,
} from './middleware/deprecation.js';
export { type TraceContext, traceContextHeaders } from './middleware/trace-context.js';
export type { ListAllPetsFilter } from './pagination.js';
export type { CreatePetResult, PetstoreResult } from './result.js';
export type { FetchLike } from './retry/attempt.js';
export { backoffDelay } from './retry/backoff.js';
export { DEFAULT_RETRY, type RetryEvent, type RetryOptions } from './retry/options.js';
export type { Clock, Random, Sleep } from './time.js';
