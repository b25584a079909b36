/**
 * What operators watch: Prometheus metrics (prom-client) of requests, rate-limit decisions,
 * store calls and the Redis fallback, plus process metrics, served at `/metrics` behind
 * `METRICS_TOKEN`.
 */
export { httpMetrics } from './http-metrics.js';
export { instrumentStorage } from './instrument-storage.js';
export { createMetrics, type Metrics, type MetricsOptions } from './metrics.js';
export { metricsRoute } from './metrics-route.js';
