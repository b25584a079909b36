import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import cors from 'cors';
import type { CorsOrigins } from '../config/index.js';
import { resolveRef } from '../contract.js';

/** How long a browser may cache a preflight answer (seconds). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

type Description = { paths?: Record<string, Record<string, unknown>> };
type Operation = {
  parameters?: { in?: string; name?: string }[];
  responses?: Record<string, { headers?: Record<string, unknown> }>;
};

/** Every operation of the description, with its method. */
function operations(description: Description): [string, Operation][] {
  return Object.values(description.paths ?? {}).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => /^(get|put|post|delete|patch|head|options|trace)$/.test(method))
      .map(([method, operation]) => [method, operation as Operation] as [string, Operation]),
  );
}

/**
 * What a browser app needs to know, read from the contract so that it cannot drift: the methods
 * (plus HEAD, answered for every GET), the request headers it may send (Authorization,
 * Content-Type, X-Request-Id and every header parameter), and every response header the contract
 * documents, which a script may read only when exposed.
 */
export function corsHeadersOf(description: Description): {
  methods: string[];
  allowedHeaders: string[];
  exposedHeaders: string[];
} {
  const ops = operations(description);
  const methods = new Set(ops.map(([method]) => method.toUpperCase()));
  if (methods.has('GET')) methods.add('HEAD');
  const allowed = new Set(['Authorization', 'Content-Type', 'X-Request-Id']);
  // `Allow` comes with 405, which answers any path rather than an operation, so the contract
  // documents it in its prose (HTTP semantics) instead of on an operation's responses.
  const exposed = new Set<string>(['Allow']);
  for (const [, operation] of ops) {
    for (const parameter of (operation.parameters ?? []).map((p) => resolveRef(description, p))) {
      if (parameter.in === 'header' && parameter.name) allowed.add(parameter.name);
    }
    for (const response of Object.values(operation.responses ?? {})) {
      for (const name of Object.keys(resolveRef(description, response).headers ?? {})) {
        exposed.add(name);
      }
    }
  }
  // Headers of the CORS protocol itself are not exposed: the browser handles them.
  const exposedHeaders = [...exposed].filter((name) => !/^(Access-Control-|Vary$)/i.test(name));
  return {
    methods: [...methods].sort(),
    allowedHeaders: [...allowed],
    exposedHeaders: exposedHeaders.sort(),
  };
}

/** A CORS preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method`. */
const isPreflight = (req: IncomingMessage) =>
  req.method === 'OPTIONS' &&
  req.headers.origin !== undefined &&
  req.headers['access-control-request-method'] !== undefined;

/**
 * CORS for browser apps on other origins (the `cors` package): a preflight `OPTIONS` is
 * answered 204 before authentication and rate limiting (browsers send it without credentials);
 * from an allowed origin it carries the allowed methods and headers and a max age. Every other
 * answer to an allowed origin carries `Access-Control-Allow-Origin`, `Vary: Origin` and
 * `Access-Control-Expose-Headers`. Any other origin gets no CORS header at all, so its browser
 * does not let the page read the answer.
 */
export function corsFor(origins: CorsOrigins, description: Description): RequestHandler {
  const { methods, allowedHeaders, exposedHeaders } = corsHeadersOf(description);
  const allowed = origins === '*' ? undefined : new Set(origins);
  const withCors = cors({
    origin: allowed === undefined ? '*' : true,
    methods: methods.join(', '),
    allowedHeaders: allowedHeaders.join(', '),
    exposedHeaders: exposedHeaders.join(', '),
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    optionsSuccessStatus: 204,
    preflightContinue: false,
  });
  return (req, res, next) => {
    const { origin } = req.headers;
    if (origin !== undefined && (allowed === undefined || allowed.has(origin))) {
      // The answer depends on Origin whatever CORS_ORIGINS says (the cors package adds it for
      // a list of origins only).
      res.vary('Origin');
      return withCors(req, res, next);
    }
    if (isPreflight(req)) {
      res.statusCode = 204;
      return res.end();
    }
    next();
  };
}
