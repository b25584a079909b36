import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Security headers (helmet's defaults: nosniff, HSTS, frame denial, a strict CSP, …) for the API
 * and the description files.
 */
export function securityHeaders(): RequestHandler {
  return helmet();
}

/**
 * The headers for `/docs`: the same, except that the Content-Security-Policy lets the offline
 * Redoc page run. Redoc is inlined into the HTML (an inline `<script>` and inline styles), starts
 * its search index in a web worker created from a `blob:` URL, and shows inline SVG/data images.
 * Nothing is loaded from another origin, so `'self'` plus those allowances is still tight.
 */
export function docsSecurityHeaders(): RequestHandler {
  return helmet({
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
