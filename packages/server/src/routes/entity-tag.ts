import { hash } from 'node:crypto';
import type { Request, Response } from 'express';
import { endAtTurnEnd, gatherHeader } from '../http/index.js';

/**
 * The strong ETag (RFC 9110 §8.8.3) of a JSON representation: the first 16 hex digits of the
 * SHA-1 of its text and, for a page, of its `Link` header, so the tag changes when the body
 * changes and when a next page appears or disappears.
 */
export function entityTag(jsonText: string, link?: string): string {
  // One-shot `hash` (no Hash object per request).
  const text = link === undefined ? jsonText : `${jsonText}\n${link}`;
  return `"${hash('sha1', text, 'hex').slice(0, 16)}"`;
}

/**
 * Whether `If-None-Match` matches `etag` (RFC 9110 §13.1.2): `*`, or any listed tag by weak
 * comparison (a `W/` prefix on either side is ignored).
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

/**
 * Sets the representation's ETag and, when the request's `If-None-Match` matches it, answers
 * 304 Not Modified with no body (the headers set so far — rate limits, request id, deprecation —
 * stay). Returns true when it answered. The origin evaluates the precondition whatever
 * `Cache-Control: no-cache` says: fetch() adds that to every request with `If-None-Match`, and
 * it tells caches to revalidate, which is exactly this (RFC 9111 §5.2.1.4). Express's own
 * freshness check treats it as "never fresh", so it is not used.
 */
export function answerIfNotModified(req: Request, res: Response, etag: string): boolean {
  gatherHeader(res, 'ETag', etag);
  if (!ifNoneMatchMatches(req.headers['if-none-match'], etag)) return false;
  endAtTurnEnd(res, undefined, 304);
  return true;
}
