import { findLink } from './link.js';

/** What a response says about the deprecation of the operation that produced it. */
export interface DeprecationInfo {
  /** From `Deprecation` (RFC 9745): when the operation was (or will be) deprecated. */
  deprecatedSince: Date | undefined;
  /** From `Sunset` (RFC 8594): when the operation will stop working. */
  sunset: Date | undefined;
  /** The `Link` with `rel="successor-version"`: what to use instead. */
  successor: URL | undefined;
  /** The `Link` with `rel="deprecation"` (RFC 9745 §4): documentation of the deprecation. */
  documentation: URL | undefined;
}

// RFC 9745 §2.1: the Deprecation value is a Structured Field Date, `@` + Unix seconds.
const STRUCTURED_DATE = /^@(-?\d{1,15})$/;

function parseDeprecationDate(value: string): Date | undefined {
  const match = STRUCTURED_DATE.exec(value.trim());
  return match?.[1] === undefined ? undefined : new Date(Number(match[1]) * 1000);
}

function parseHttpDate(value: string): Date | undefined {
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : new Date(at);
}

/**
 * Reads `Deprecation`, `Sunset` and the deprecation-related `Link`s; undefined when the
 * response carries neither `Deprecation` nor `Sunset` (the operation is not deprecated).
 *
 * @param base URL the `Link` targets are resolved against (the response's URL).
 */
export function parseDeprecation(headers: Headers, base: string): DeprecationInfo | undefined {
  const deprecation = headers.get('Deprecation');
  const sunset = headers.get('Sunset');
  if (deprecation === null && sunset === null) return undefined;
  const link = headers.get('Link');
  return {
    deprecatedSince: deprecation === null ? undefined : parseDeprecationDate(deprecation),
    sunset: sunset === null ? undefined : parseHttpDate(sunset),
    successor: findLink(link, 'successor-version', base),
    documentation: findLink(link, 'deprecation', base),
  };
}
