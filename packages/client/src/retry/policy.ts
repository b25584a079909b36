/**
 * Methods that may be re-sent after a failure that may have reached the server.
 * RFC 9110 §9.2.2: a client may retry idempotent requests automatically; POST is not
 * idempotent, so a POST is re-sent only when the server says it did not process it (429).
 */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Statuses where an idempotent request is worth retrying: the failure is transient. */
const TRANSIENT_5XX = new Set([500, 502, 503, 504]);

/**
 * Whether a response is worth another attempt. 429 always is: the contract says a rejected
 * request is not carried out (RFC 6585 §4), so even a POST is safe to re-send.
 */
export function shouldRetryStatus(method: string, status: number): boolean {
  if (status === 429) return true;
  return TRANSIENT_5XX.has(status) && IDEMPOTENT.has(method.toUpperCase());
}

/** Whether a request that got no response (network error, timeout) may be re-sent. */
export function shouldRetryFailure(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}
