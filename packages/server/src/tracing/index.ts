/**
 * OpenTelemetry tracing: a SERVER span per request continuing the caller's W3C trace, CLIENT
 * spans for the store's and Redis's calls, trace ids in the log lines, exported over OTLP/HTTP.
 * Configured by the standard `OTEL_*` variables and loaded (`import()`) only when they ask for
 * it: everything else imports only its types.
 */
export {
  DEFAULT_SERVICE_NAME,
  startTracing,
  type StartTracingOptions,
  type Tracing,
} from './start-tracing.js';
export type { ServerSpans } from './server-spans.js';
export type { TraceFields } from './log-fields.js';
