/**
 * Methods that may be re-sent after a failure that may have reached the server.
 * RFC 9110 §9.2.2: a client may retry idempotent requests automatically.
 */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Statuses where a request that is safe to repeat is worth retrying: the failure is transient. */
const TRANSIENT_5XX = new Set([500, 502, 503, 504]);

/**
 * Whether the request may be sent again after a failure that may have reached the server:
 * an idempotent method, or a request with an `Idempotency-Key`
 * (draft-ietf-httpapi-idempotency-key-header-07), which the server answers at most once —
 * a repeat gets the first answer back instead of doing the work again. POST without one is
 * not: it may have been carried out.
 */
export function isSafeToRepeat(request: Request): boolean {
  return IDEMPOTENT.has(request.method.toUpperCase()) || request.headers.has('Idempotency-Key');
}

/**
 * Whether a response is worth another attempt. 429 always is: the contract says a rejected
 * request is not carried out (RFC 6585 §4), so even a POST is safe to re-send. 409 is for a
 * request with an `Idempotency-Key`: the first request with that key is still being
 * processed (`idempotency_key_in_use`), and its `Retry-After` says when to ask again.
 * A 5xx is, for a request safe to repeat.
 */
export function shouldRetryStatus(request: Request, status: number): boolean {
  if (status === 429) return true;
  if (status === 409) return request.headers.has('Idempotency-Key');
  return TRANSIENT_5XX.has(status) && isSafeToRepeat(request);
}

/** Whether a request that got no response (network error, timeout) may be re-sent. */
export function shouldRetryFailure(request: Request): boolean {
  return isSafeToRepeat(request);
}
