import {
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import {
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import type { CounterWrapper } from '../rate-limit/index.js';
import type { StoreCallWrapper } from '../storage/index.js';

/**
 * What a child span says of the system it calls: `db.system.name` and, for a server, its
 * address and port (never credentials).
 */
export type CalledSystem = Record<string, string | number>;

/** The store `databaseUrl` names: SQLite (`file:`) or PostgreSQL, with its server. */
export function storeSystem(databaseUrl: string): CalledSystem {
  // `sqlite` is the semantic conventions' value (still in their incubating set).
  if (databaseUrl.startsWith('file:')) return { [ATTR_DB_SYSTEM_NAME]: 'sqlite' };
  return { [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL, ...serverOf(databaseUrl, 5432) };
}

/** Redis at `redisUrl`, with its server. */
export function redisSystem(redisUrl: string): CalledSystem {
  // `redis` is the semantic conventions' value (still in their incubating set).
  return { [ATTR_DB_SYSTEM_NAME]: 'redis', ...serverOf(redisUrl, 6379) };
}

function serverOf(url: string, defaultPort: number): CalledSystem {
  try {
    const { hostname, port } = new URL(url);
    return {
      [ATTR_SERVER_ADDRESS]: hostname.replace(/^\[(.*)\]$/, '$1'),
      [ATTR_SERVER_PORT]: port === '' ? defaultPort : Number(port),
    };
  } catch {
    return {};
  }
}

/**
 * Runs `call` inside a CLIENT span named `name` (also its `db.operation.name`), a child of the
 * active span, ended when the call settles; a failure sets `error.type` (the error's class)
 * and an error status. Without an active span (the start-up warm-up, the hourly purge) the
 * call runs untraced: a span of its own would be a trace of one span, with no request to
 * follow.
 */
export function tracedCall<A extends unknown[], R>(
  tracer: Tracer,
  name: string,
  system: CalledSystem,
  call: (...args: A) => R | Promise<R>,
): (...args: A) => Promise<R> {
  const attributes = { ...system, [ATTR_DB_OPERATION_NAME]: name };
  return async (...args) => {
    const active = context.active();
    if (trace.getSpan(active) === undefined) return call(...args);
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, active);
    try {
      const result = await call(...args);
      span.end();
      return result;
    } catch (error) {
      failed(span, error);
      throw error;
    }
  };
}

function failed(span: Span, error: unknown): void {
  span.setAttribute(ATTR_ERROR_TYPE, error instanceof Error ? error.name : 'unknown');
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
  span.end();
}

/** A `StoreCallWrapper` that gives each store call its span. */
export function storeSpans(tracer: Tracer, system: CalledSystem): StoreCallWrapper {
  return (name, call) => tracedCall(tracer, name, system, call);
}

/**
 * A `CounterWrapper` that gives each call of a rate-limit counter in Redis its span, named
 * by counter and call (`rate-limit.minute.consume`): the commands themselves (a Lua script per
 * count, a GET per ban lookup) are rate-limiter-flexible's, and ioredis pipelines those of
 * concurrent requests together, so the counter's call is what belongs to one request.
 */
export function redisCounterSpans(tracer: Tracer, system: CalledSystem): CounterWrapper {
  return (counterName, counter) => {
    const name = (call: string) => `rate-limit.${counterName}.${call}`;
    return {
      consume: tracedCall(tracer, name('consume'), system, counter.consume.bind(counter)),
      reward: tracedCall(tracer, name('reward'), system, counter.reward.bind(counter)),
      get: tracedCall(tracer, name('get'), system, counter.get.bind(counter)),
      set: tracedCall(tracer, name('set'), system, counter.set.bind(counter)),
    };
  };
}
