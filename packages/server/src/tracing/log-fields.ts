import { context, type Span, trace } from '@opentelemetry/api';

/**
 * A span's ids as a log line carries them: the field names of OpenTelemetry's log data model
 * as pino's OpenTelemetry instrumentation writes them (`trace_id`, `span_id`, `trace_flags`),
 * so a log pipeline joins lines and traces without configuration.
 */
export interface TraceFields {
  trace_id: string;
  span_id: string;
  trace_flags: string;
}

export function traceFieldsOf(span: Span): TraceFields {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return {
    trace_id: traceId,
    span_id: spanId,
    trace_flags: `0${traceFlags.toString(16)}`.slice(-2),
  };
}

/**
 * A pino `mixin`: the active span's ids on any line logged while a request is served (an
 * `unexpected error`, a warning of a handler), nothing elsewhere.
 */
export function activeTraceFields(): Partial<TraceFields> {
  const span = trace.getSpan(context.active());
  return span === undefined ? {} : traceFieldsOf(span);
}
