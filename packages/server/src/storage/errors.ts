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
 * One promise per call (a `then`, not an `async` function awaiting another): it is on every
 * store call of the hot path.
 */
export function translateStoreErrors<T>(
  operation: () => T | Promise<T>,
  isUnavailable: (error: unknown) => boolean,
): Promise<T> {
  const translated = (error: unknown): never => {
    throw isUnavailable(error) ? new StoreUnavailableError(error) : error;
  };
  try {
    const result = operation();
    return result instanceof Promise ? result.then(undefined, translated) : Promise.resolve(result);
  } catch (error) {
    return Promise.reject(isUnavailable(error) ? new StoreUnavailableError(error) : error);
  }
}
