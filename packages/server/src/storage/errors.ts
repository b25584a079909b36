/**
 * The store could not be reached or written: the database is down or unreachable, the disk is
 * full or read-only, the pool timed out. Transient by nature, so the API answers 503
 * `service_unavailable` with `Retry-After` and the next request tries again (no restart needed).
 * Each adapter recognises its driver's errors and throws this; anything else is a bug (500).
 */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The store is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'StoreUnavailableError';
  }
}

/**
 * Runs `operation`, turning the errors `isUnavailable` recognises into `StoreUnavailableError`.
 * The adapters wrap every database call with it, so callers see one error for "try later".
 */
export async function translateStoreErrors<T>(
  operation: () => T | Promise<T>,
  isUnavailable: (error: unknown) => boolean,
): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw isUnavailable(error) ? new StoreUnavailableError(error) : error;
  }
}
