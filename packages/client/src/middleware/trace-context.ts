import type { Middleware } from 'openapi-fetch';

/** The W3C Trace Context of the caller's current span, as its two headers carry it. */
export interface TraceContext {
  /** `00-<trace-id>-<parent-id>-<flags>`, e.g. `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01`. */
  traceparent: string;
  /** Vendor-specific trace data (`congo=t61rcWkgMzE`), passed on as given. */
  tracestate?: string | undefined;
}

// W3C Trace Context §3.2: version 00, a non-zero trace id and parent id, lowercase hex.
const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;
// §3.3: at most 512 characters of list members; no control characters.
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/**
 * openapi-fetch middleware that sends the caller's trace context (`traceparent`, and
 * `tracestate` when there is one) with every request, so the server's span joins the
 * caller's trace. `current` is asked per request (the active span changes); it returns
 * undefined when there is none. A `traceparent` that is not a valid version-00 header is not
 * sent (nor its `tracestate`): the server would start a new trace anyway. Each retry re-sends
 * the request as it was, header included.
 *
 * @example
 * ```ts
 * import { context, propagation } from '@opentelemetry/api';
 * raw.use(
 *   traceContextHeaders(() => {
 *     const carrier: { traceparent?: string; tracestate?: string } = {};
 *     propagation.inject(context.active(), carrier);
 *     return carrier.traceparent ? { traceparent: carrier.traceparent, tracestate: carrier.tracestate } : undefined;
 *   }),
 * );
 * ```
 */
export function traceContextHeaders(current: () => TraceContext | undefined): Middleware {
  return {
    onRequest({ request }) {
      const trace = current();
      if (trace === undefined || !TRACEPARENT.test(trace.traceparent)) return request;
      request.headers.set('traceparent', trace.traceparent);
      if (trace.tracestate !== undefined && TRACESTATE.test(trace.tracestate))
        request.headers.set('tracestate', trace.tracestate);
      return request;
    },
  };
}
