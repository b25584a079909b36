import type { ResponseObserver } from '../http/index.js';
import { operationIdOf } from '../validation/index.js';
import type { Metrics } from './metrics.js';

/**
 * Counts every response and times it (from arrival to the response's end; an observer for
 * `observeResponses`), labelled with the contract's operationId when the request matched one
 * (`none` otherwise: 401 before routing, unknown paths, public routes), its method and status.
 */
export function httpMetrics({ requests, requestDuration }: Metrics): ResponseObserver {
  return (req, res, elapsedMs) => {
    const operation = operationIdOf(req) ?? 'none';
    // Labels as an object: `labels(...)` would bind a new child per call, and prom-client
    // hashes the labels on every `inc`/`observe` either way.
    requests.inc({ operation, method: req.method, status: String(res.statusCode) });
    requestDuration.observe({ operation }, elapsedMs / 1000);
  };
}
