import type { IncomingMessage } from 'node:http';
import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import {
  defaultResource,
  detectResources,
  resourceAttributesEnvDetector,
  resourceFromAttributes,
  serviceNameEnvDetector,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from '../config/index.js';
import type { Logger } from '../logger/index.js';
import type { CounterWrapper } from '../rate-limit/index.js';
import type { StoreCallWrapper } from '../storage/index.js';
import { redisCounterSpans, redisSystem, storeSpans, storeSystem } from './client-spans.js';
import { activeTraceFields, type TraceFields } from './log-fields.js';
import { samplerFor } from './sampler.js';
import { type ServerSpans, serverSpans } from './server-spans.js';

/** The service name when `OTEL_SERVICE_NAME` (or `service.name` in `OTEL_RESOURCE_ATTRIBUTES`) is unset. */
export const DEFAULT_SERVICE_NAME = 'petstore';

/** What the server's layers take from tracing; each is handed to the layer it traces. */
export interface Tracing {
  /** The SERVER span of each request (not of those `ignore` picks out). */
  serverSpans(ignore?: (req: IncomingMessage) => boolean): ServerSpans;
  /** A pino mixin: the active span's ids on every line logged while a request is served. */
  logMixin(): Partial<TraceFields>;
  /** Gives each store call a child span. */
  storeCalls: StoreCallWrapper;
  /** Gives each call of a rate-limit counter in Redis a child span. */
  redisCounters: CounterWrapper;
  /** Sends the SDK's own warnings and errors (an export that failed) to `logger`, at `warn`. */
  reportTo(logger: Logger): void;
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

export interface StartTracingOptions {
  /** The store's URL, for the store spans' `db.system.name` and server (never credentials). */
  databaseUrl: string;
  /** Redis's URL, for the Redis spans' server; undefined: no Redis. */
  redisUrl: string | undefined;
}

/**
 * Starts OpenTelemetry tracing: the SDK's tracer provider with the sampler and batching of
 * `config` (`OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`), registered globally with the
 * AsyncLocalStorage context and W3C Trace Context and Baggage propagation; the resource from
 * `OTEL_RESOURCE_ATTRIBUTES` and `OTEL_SERVICE_NAME` (which wins); and the OTLP/HTTP exporter
 * of `config.protocol` (which reads `OTEL_EXPORTER_OTLP_*`: endpoint, headers, timeout,
 * compression). Loaded with `import()` only when `config.tracing` is set: a server without
 * tracing never loads the SDK.
 *
 * @example
 * ```ts
 * const tracing = await startTracing(config.tracing, { databaseUrl, redisUrl });
 * tracing.reportTo(logger);
 * ```
 */
export async function startTracing(
  config: TracingConfig,
  { databaseUrl, redisUrl }: StartTracingOptions,
): Promise<Tracing> {
  const { batch } = config;
  const provider = new TracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: DEFAULT_SERVICE_NAME }))
      .merge(
        detectResources({ detectors: [resourceAttributesEnvDetector, serviceNameEnvDetector] }),
      ),
    sampler: samplerFor(config.sampler),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: await exporterFor(config),
        scheduledDelayMillis: batch.scheduledDelayMs,
        exportTimeoutMillis: batch.exportTimeoutMs,
        maxQueueSize: batch.maxQueueSize,
        maxExportBatchSize: batch.maxExportBatchSize,
      }),
    ],
  });
  // What the 2.x NodeTracerProvider's register() did; the 3.x SDK leaves it to its user.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
  );
  trace.setGlobalTracerProvider(provider);
  const tracer = trace.getTracer('@petstore/server');
  return {
    serverSpans: (ignore) => serverSpans(tracer, ignore),
    logMixin: activeTraceFields,
    storeCalls: storeSpans(tracer, storeSystem(databaseUrl)),
    redisCounters: redisCounterSpans(tracer, redisUrl === undefined ? {} : redisSystem(redisUrl)),
    reportTo(logger) {
      const warn = (message: string, ...args: unknown[]) =>
        logger.warn({ details: args }, `OpenTelemetry: ${message}`);
      const quiet = () => {};
      diag.setLogger(
        { error: warn, warn, info: quiet, debug: quiet, verbose: quiet },
        { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
      );
    },
    shutdown: () => provider.shutdown(),
  };
}

/** The OTLP/HTTP exporter of the protocol asked for; only that one is loaded. */
async function exporterFor({ protocol }: TracingConfig): Promise<SpanExporter> {
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}
