import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Quota } from '../domain.js';
import { ApiError } from '../errors/index.js';
import { type RateLimiter, rateLimitHeaders } from '../rate-limit/index.js';

export interface ClientErrorOptions {
  limiter: RateLimiter;
  /** The quota a caller without a key is counted at (the request was never read). */
  anonymousQuota: Quota;
}

/** What Node's HTTP parser reports, and the status that answers it. */
function statusOf(code: string | undefined): 400 | 408 | 431 {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

const messages = {
  400: 'The request is not well-formed HTTP/1.1 (its request line, method or a header).',
  408: 'The request did not arrive in time: send its headers and body without pausing.',
  431: 'The request line and headers are too large.',
} as const;

/**
 * Answers what Node's HTTP layer refuses before the app sees a request — malformed HTTP (400), a
 * head over the size limit (431), a request that arrives too slowly (408) — with the documented
 * Error body (`invalid_request`, `status` equal to the HTTP status), an `X-Request-Id` and the
 * rate-limit headers of the client address, instead of Node's bare status line. The connection
 * is then closed: after a parse error, nothing more on it can be trusted.
 */
export function answerClientErrors(
  server: Server,
  { limiter, anonymousQuota }: ClientErrorOptions,
): void {
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = statusOf(error.code);
    const address = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown';
    void Promise.resolve()
      .then(() => limiter.consume({ kind: 'address', address }, anonymousQuota))
      .then(rateLimitHeaders, () => ({}))
      .then((rateLimitHeaders) => {
        if (!socket.writable) return socket.destroy();
        const body = JSON.stringify({
          ...new ApiError('invalid_request', messages[status]).toBody(),
          status,
        });
        const headers: Record<string, string> = {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(body)),
          Connection: 'close',
          'X-Request-Id': randomUUID(),
          ...rateLimitHeaders,
        };
        const head = Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('');
        socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
      });
  });
}
