import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LimiterHealth } from '../rate-limit/index.js';

/** What the rate limiter decided about a request. */

/**
 * The server's Prometheus metrics (prom-client), in a registry of their own so that two servers
 * in one process (tests) never share counts. Names follow Prometheus conventions: a
 * `petstore_` prefix, base units (seconds), `_total` for counters.
 */
export interface Metrics {
  registry: Registry;
  /** Requests answered, by operation (`listPets`…, or `none` when no operation matched), method and status. */
  requests: Counter<'operation' | 'method' | 'status'>;
  /** How long requests took, from arrival to the last byte handed to the socket. */
  requestDuration: Histogram<'operation'>;
  /** Rate-limit decisions, by outcome. */
  rateLimitDecisions: Counter<'outcome'>;
  /** How long store calls took, by method (`pets.list`, `keys.findActiveByHash`…) and outcome. */
  storeDuration: Histogram<'method' | 'outcome'>;
  /** 1 while rate limits are counted in this process because Redis is unreachable, else 0. */
  redisFallback: Gauge;
  /** How many writes each SQLite commit carried (group commit: one fsync for all of them). */
  writeGroupSize: Histogram;
}

/** Latency buckets (seconds) for a service whose requests take ~0.1–50 ms. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const STORE_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1];

export interface MetricsOptions {
  /** Read at each scrape for `petstore_redis_fallback`. */
  limiterHealth: () => LimiterHealth;
}

export function createMetrics({ limiterHealth }: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'petstore_' });
  return {
    registry,
    requests: new Counter({
      name: 'petstore_http_requests_total',
      help: 'HTTP requests answered, by operation, method and status.',
      labelNames: ['operation', 'method', 'status'] as const,
      registers: [registry],
    }),
    requestDuration: new Histogram({
      name: 'petstore_http_request_duration_seconds',
      help: 'Time from a request’s arrival to its response’s end, by operation.',
      labelNames: ['operation'] as const,
      buckets: REQUEST_BUCKETS,
      registers: [registry],
    }),
    rateLimitDecisions: new Counter({
      name: 'petstore_rate_limit_decisions_total',
      help: 'Rate-limit decisions: allowed, limited (429 rate_limited) or banned (429 key_banned).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    storeDuration: new Histogram({
      name: 'petstore_store_query_duration_seconds',
      help: 'Time of each store call, by method and outcome (ok, unavailable, error).',
      labelNames: ['method', 'outcome'] as const,
      buckets: STORE_BUCKETS,
      registers: [registry],
    }),
    writeGroupSize: new Histogram({
      name: 'petstore_store_write_group_size',
      help: 'Writes carried by each group commit: the SQLite writer thread, PostgreSQL grouped creates.',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128],
      registers: [registry],
    }),
    redisFallback: new Gauge({
      name: 'petstore_redis_fallback',
      help: '1 while Redis is unreachable and rate limits are counted in this process, else 0.',
      registers: [registry],
      collect() {
        const health = limiterHealth();
        this.set(health.backend === 'redis' && !health.reachable ? 1 : 0);
      },
    }),
  };
}
