import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import type { Metrics } from './metrics.js';

/** What the validator leaves on a request it matched to an operation. */
type WithOperation = { openapi?: { schema?: { operationId?: string } } };

/**
 * Counts every response and times it (from arrival to the response's end), labelled with the
 * contract's operationId when the request matched one (`none` otherwise: 401 before routing,
 * unknown paths, public routes), its method and status.
 */
export function httpMetrics({ requests, requestDuration }: Metrics): RequestHandler {
  // The labelled series, looked up once per label set: prom-client hashes the labels on
  // every `labels()` call. The sets are few (operations × methods × statuses).
  const series = new Map<string, { count: () => void; time: (seconds: number) => void }>();
  const seriesOf = (operation: string, method: string, status: number) => {
    const name = `${operation} ${method} ${status}`;
    let found = series.get(name);
    if (found === undefined) {
      const counter = requests.labels(operation, method, String(status));
      const histogram = requestDuration.labels(operation);
      found = { count: () => counter.inc(), time: (seconds) => histogram.observe(seconds) };
      series.set(name, found);
    }
    return found;
  };
  return (req, res, next) => {
    const start = performance.now();
    res.once('finish', () => {
      const operation = (req as WithOperation).openapi?.schema?.operationId ?? 'none';
      const { count, time } = seriesOf(operation, req.method, res.statusCode);
      count();
      time((performance.now() - start) / 1000);
    });
    next();
  };
}
