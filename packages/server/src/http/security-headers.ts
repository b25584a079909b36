import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { gatherHeaders } from './response-headers.js';

/**
 * The headers helmet would set, worked out once: helmet's middleware runs against a stand-in
 * response at start-up, and every request then gets the same headers in one loop instead of a
 * dozen middleware calls. Valid because none of our helmet options depends on the request.
 */
function precomputed(options?: Readonly<HelmetOptions>): RequestHandler {
  const headers: [string, string][] = [];
  const standIn = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, String(value)]);
      return standIn;
    },
    removeHeader() {},
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, standIn, () => {});
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/**
 * The security headers of a JSON answer (the API, errors, the description files, the probes):
 * the set the OWASP REST Security Cheat Sheet gives for APIs. A JSON body is never rendered as a
 * page, so it needs no script, style or image policy: the CSP allows nothing and no framing,
 * `nosniff` keeps browsers from reading it as anything but JSON, HSTS pins HTTPS, and no
 * Referer leaves. helmet's other headers (cross-origin isolation, DNS prefetch, download and
 * XSS-auditor switches) govern HTML documents; `/docs` gets them, with its own CSP.
 */
const JSON_SECURITY_HEADERS: readonly string[] = [
  ...['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ...['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ...['X-Content-Type-Options', 'nosniff'],
  ...['X-Frame-Options', 'DENY'],
  ...['Referrer-Policy', 'no-referrer'],
];

/**
 * Gives every response {@link JSON_SECURITY_HEADERS} (gathered: `/docs` sets its own with
 * `setHeader`, which win).
 */
export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    gatherHeaders(res, JSON_SECURITY_HEADERS);
    next();
  };
}

/**
 * The headers for `/docs`, an HTML page: helmet's defaults, except that the
 * Content-Security-Policy lets the offline Redoc page run. Redoc is inlined into the HTML (an
 * inline `<script>` and inline styles), starts its search index in a web worker created from a
 * `blob:` URL, and shows inline SVG/data images. Nothing is loaded from another origin, so
 * `'self'` plus those allowances is still tight.
 */
export function docsSecurityHeaders(): RequestHandler {
  return precomputed({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", "'unsafe-inline'", 'blob:'],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'worker-src': ["'self'", 'blob:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
  });
}
