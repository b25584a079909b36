import type { ResponseObserver } from '../http/index.js';
import type { Metrics } from './metrics.js';

/** What the validator leaves on a request it matched to an operation. */
type WithOperation = { openapi?: { schema?: { operationId?: string } } };

/**
 * Counts every response and times it (from arrival to the response's end; an observer for
 * `observeResponses`), labelled with the contract's operationId when the request matched one
 * (`none` otherwise: 401 before routing, unknown paths, public routes), its method and status.
 */
export function httpMetrics({ requests, requestDuration }: Metrics): ResponseObserver {
  return (req, res, elapsedMs) => {
    const operation = (req as WithOperation).openapi?.schema?.operationId ?? 'none';
    // Labels as an object: `labels(...)` would bind a new child per call, and prom-client
    // hashes the labels on every `inc`/`observe` either way.
    requests.inc({ operation, method: req.method, status: String(res.statusCode) });
    requestDuration.observe({ operation }, elapsedMs / 1000);
  };
}
