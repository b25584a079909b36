import express, { type RequestHandler } from 'express';

/** The largest request body accepted (100 KiB); larger ones get 413 `payload_too_large`. */
export const BODY_LIMIT_BYTES = 100 * 1024;

/**
 * Parses `application/json` bodies up to the limit, strict (objects and
 * arrays only). Bodies of other types are left unparsed; the validator answers them with 415.
 */
export function jsonBody(): RequestHandler {
  return express.json({ limit: BODY_LIMIT_BYTES, strict: true, type: 'application/json' });
}
