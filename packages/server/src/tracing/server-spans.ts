import type { IncomingMessage } from 'node:http';
import {
  type Attributes,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PEER_ADDRESS,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_QUERY,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions';
import type { Request, RequestHandler, Response } from 'express';
import { type TraceFields, traceFieldsOf } from './log-fields.js';

/** The methods HTTP semantic conventions name as they are; any other is `_OTHER`. */
const KNOWN_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'CONNECT',
  'OPTIONS',
  'TRACE',
  'PATCH',
  'QUERY',
]);

/** What express-openapi-validator records on a request it resolved: the contract's path template. */
interface Resolved {
  openapi?: { openApiRoute?: string };
}

export interface ServerSpans {
  /** First in the chain: the request's span, active for everything that runs for it. */
  handler: RequestHandler;
  /** The ids of a request's span, for its log line (undefined for an ignored request). */
  traceFieldsOf(res: Response): TraceFields | undefined;
}

/**
 * One SERVER span per request, following the HTTP semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/http/http-spans/): it continues the caller's
 * trace when the request carries a W3C `traceparent` (and `tracestate`), else starts a new
 * one; it is the active span while the request is served, so the store's and Redis's spans
 * are its children; it ends when the connection is done with the response. Named by the
 * method at first and, once the contract's operation is known, by method and route
 * (`GET /v1/pets/{petId}`); `error.type` and an error status on a 5xx (a 4xx is the caller's
 * error, not the server's).
 */
export function serverSpans(
  tracer: Tracer,
  ignore?: ((req: IncomingMessage) => boolean) | undefined,
): ServerSpans {
  const spans = new WeakMap<Response, Span>();
  const handler: RequestHandler = (req, res, next) => {
    if (ignore?.(req)) return next();
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: requestAttributes(req) },
      parent,
    );
    spans.set(res, span);
    // 'close' comes once: after 'finish', or when the connection ends before the response.
    res.on('close', () => endServerSpan(span, req, res));
    context.with(trace.setSpan(parent, span), next);
  };
  return {
    handler,
    traceFieldsOf(res) {
      const span = spans.get(res);
      return span === undefined ? undefined : traceFieldsOf(span);
    },
  };
}

function requestAttributes(req: Request): Attributes {
  const method = KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
  const url = req.originalUrl;
  const queryAt = url.indexOf('?');
  const attributes: Attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: method,
    [ATTR_URL_SCHEME]: req.protocol,
    [ATTR_URL_PATH]: queryAt === -1 ? url : url.slice(0, queryAt),
    [ATTR_NETWORK_PROTOCOL_VERSION]: req.httpVersion,
  };
  if (method === '_OTHER') attributes[ATTR_HTTP_REQUEST_METHOD_ORIGINAL] = req.method;
  if (queryAt !== -1) attributes[ATTR_URL_QUERY] = url.slice(queryAt + 1);
  if (req.ip !== undefined) attributes[ATTR_CLIENT_ADDRESS] = req.ip;
  if (req.socket.remoteAddress !== undefined)
    attributes[ATTR_NETWORK_PEER_ADDRESS] = req.socket.remoteAddress;
  const userAgent = req.headers['user-agent'];
  if (userAgent !== undefined) attributes[ATTR_USER_AGENT_ORIGINAL] = userAgent;
  const host = hostOf(req.headers.host);
  if (host !== undefined) {
    attributes[ATTR_SERVER_ADDRESS] = host.address;
    if (host.port !== undefined) attributes[ATTR_SERVER_PORT] = host.port;
  }
  return attributes;
}

/** The `Host` header's name and port (`[::1]:8080` → `::1`, 8080), or undefined. */
function hostOf(header: string | undefined): { address: string; port?: number } | undefined {
  if (header === undefined) return undefined;
  try {
    const { hostname, port } = new URL(`http://${header}`);
    const address = hostname.replace(/^\[(.*)\]$/, '$1');
    return port === '' ? { address } : { address, port: Number(port) };
  } catch {
    return undefined;
  }
}

/**
 * The route: the contract's path template for an API operation, else the Express route a
 * public path matched (`/healthz`); none for a path nothing matched.
 */
function routeOf(req: Request): string | undefined {
  const template = (req as Resolved).openapi?.openApiRoute;
  if (template !== undefined) return template;
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? path : undefined;
}

function endServerSpan(span: Span, req: Request, res: Response): void {
  const route = routeOf(req);
  if (route !== undefined) {
    span.setAttribute(ATTR_HTTP_ROUTE, route);
    span.updateName(`${req.method} ${route}`);
  }
  if (!res.writableFinished) {
    // The connection ended before the whole response was sent.
    span.setAttribute(ATTR_ERROR_TYPE, 'response_incomplete');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'the connection closed first' });
  } else {
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
    if (res.statusCode >= 500) {
      span.setAttribute(ATTR_ERROR_TYPE, String(res.statusCode));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  }
  span.end();
}
