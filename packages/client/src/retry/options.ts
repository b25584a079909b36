/** What the client is about to do before a retry, for logs and metrics. */
export interface RetryEvent {
  /** `GET /v1/pets`: method and path (never headers, so never the key). */
  request: string;
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** How long the client waits before the next attempt, in ms. */
  delayMs: number;
  /** Where the wait comes from: the server's `Retry-After`, or the client's backoff. */
  waitFrom: 'retry-after' | 'backoff';
  /** The status of the failed attempt; undefined when it got no response. */
  status: number | undefined;
  /** The failure of an attempt that got no response (NetworkError, TimeoutError). */
  error: unknown;
}

/**
 * How the client retries. Every field is optional; `resolveRetryOptions` fills the
 * defaults.
 */
export interface RetryOptions {
  /** Requests sent at most, the first included (default 4). */
  maxAttempts?: number;
  /** The backoff of the first retry before jitter, in ms (default 500). */
  baseDelayMs?: number;
  /** No backoff wait is longer than this, in ms (default 30 000). */
  maxDelayMs?: number;
  /**
   * Total time, in ms, from the first attempt, that the client may spend retrying
   * (default 60 000). A wait that would end beyond it is not started: the client fails
   * fast with `RetryBudgetExceededError`.
   */
  budgetMs?: number;
  /** Called before each wait for a retry (e.g. to log it); default none. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
}

export type ResolvedRetryOptions = Required<Omit<RetryOptions, 'onRetry'>> &
  Pick<RetryOptions, 'onRetry'>;

export const DEFAULT_RETRY: ResolvedRetryOptions = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  budgetMs: 60_000,
};

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(
      `retry.${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`,
    );
  }
  return value;
}

/** The options with defaults filled and values checked (a bad value throws a RangeError). */
export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  const resolved = { ...DEFAULT_RETRY, ...options };
  if (!Number.isInteger(resolved.maxAttempts) || resolved.maxAttempts < 1) {
    throw new RangeError('retry.maxAttempts must be an integer of at least 1');
  }
  positive('baseDelayMs', resolved.baseDelayMs, true);
  positive('maxDelayMs', resolved.maxDelayMs, true);
  positive('budgetMs', resolved.budgetMs, true);
  return resolved;
}
