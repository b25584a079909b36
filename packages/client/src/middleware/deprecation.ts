import type { Middleware } from 'openapi-fetch';
import { type DeprecationInfo, parseDeprecation } from '../headers/deprecation.js';

/** A deprecated operation answered: what it was and what the response announced. */
export interface DeprecationNotice extends DeprecationInfo {
  /** The operation as `METHOD /path/{template}` (e.g. `GET /pets/{petId}`). */
  operation: string;
}

/** Called for every response that carries `Deprecation` or `Sunset`. */
export type OnDeprecation = (notice: DeprecationNotice) => void;

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The one-line warning the default handler prints. */
export function formatDeprecationWarning(notice: DeprecationNotice): string {
  const removal = notice.sunset ? ` and will be removed on ${day(notice.sunset)}` : '';
  const instead = notice.successor ? `; use ${notice.successor.href} instead` : '';
  const docs = notice.documentation ? ` (see ${notice.documentation.href})` : '';
  return `Pet Store API: ${notice.operation} is deprecated${removal}${instead}${docs}.`;
}

/**
 * A handler that warns once per operation for as long as it lives, through `warn`
 * (default `console.warn`). The client's default handler is one of these created when the
 * module loads, so it warns once per operation per process, whatever the number of clients.
 */
export function warnOncePerOperation(
  warn: (message: string) => void = (message) => console.warn(message),
): OnDeprecation {
  const warned = new Set<string>();
  return (notice) => {
    if (warned.has(notice.operation)) return;
    warned.add(notice.operation);
    warn(formatDeprecationWarning(notice));
  };
}

/** The process-wide default: one `console.warn` per deprecated operation. */
export const defaultOnDeprecation: OnDeprecation = warnOncePerOperation();

/**
 * openapi-fetch middleware that reports deprecated operations: a response carrying
 * `Deprecation` (RFC 9745) or `Sunset` (RFC 8594) calls `onDeprecation` with the dates and
 * the replacement named by the `Link` with `rel="successor-version"`.
 */
export function deprecationWarnings(onDeprecation: OnDeprecation): Middleware {
  return {
    onResponse({ request, response, schemaPath }) {
      const info = parseDeprecation(response.headers, response.url || request.url);
      if (info) onDeprecation({ operation: `${request.method} ${schemaPath}`, ...info });
      return undefined;
    },
  };
}
