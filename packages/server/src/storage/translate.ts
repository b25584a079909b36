import { ApiError, type ErrorTranslator } from '../errors/index.js';
import { StoreUnavailableError } from './errors.js';

/** How long a client should wait before retrying when the store is unavailable. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * The store's "try later" in the API's words: 503 `service_unavailable` with `Retry-After`.
 * Nothing was changed (a write that failed was not committed), so a retry is safe.
 */
export const translateStoreError: ErrorTranslator = (err) =>
  err instanceof StoreUnavailableError
    ? new ApiError(
        'service_unavailable',
        `The store is unavailable; retry after ${STORE_RETRY_AFTER_SECONDS} seconds.`,
        { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) },
      )
    : undefined;
