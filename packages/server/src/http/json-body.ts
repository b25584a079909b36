import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import { ApiError, type ErrorTranslator } from '../errors/index.js';

/** The largest request body accepted (100 KiB); larger ones get 413 `payload_too_large`. */
export const BODY_LIMIT_BYTES = 100 * 1024;

/**
 * Parses `application/json` bodies up to the limit, strict (objects and arrays only); a request
 * without a body is not looked at. Bodies of other types are left unparsed; the validator
 * answers them with 415.
 */
export function jsonBody(): RequestHandler {
  const parse = express.json({
    limit: BODY_LIMIT_BYTES,
    strict: true,
    type: 'application/json',
    // The body must be UTF-8 (RFC 8259 §8.1): bytes that are not would be decoded as U+FFFD and
    // stored changed, so they are refused before parsing (body-parser: 'entity.verify.failed').
    verify: (_req, _res, buffer) => {
      if (!isUtf8(buffer)) throw new Error('not UTF-8');
    },
  });
  // A request with neither header has no body (RFC 9112 §6.3): most GETs, which need not pay
  // for the parser's own checks. Any other request is the parser's to judge.
  return (req, res, next) =>
    req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined
      ? next()
      : parse(req, res, next);
}

/** Whether `text` is JSON text (body-parser's strict mode also refuses `42`, `"x"`, `null`). */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** body-parser's errors (https://github.com/expressjs/body-parser#errors) in the API's words. */
export const translateBodyParserError: ErrorTranslator = (err) => {
  const { type, body } = (err ?? {}) as { type?: unknown; body?: unknown };
  switch (type) {
    case 'entity.parse.failed':
      return new ApiError(
        'invalid_request',
        typeof body === 'string' && isJson(body)
          ? 'request/body must be object'
          : 'request/body is not well-formed JSON.',
      );
    case 'entity.too.large':
      return new ApiError(
        'payload_too_large',
        `The request body exceeds the limit of ${BODY_LIMIT_BYTES} bytes.`,
      );
    case 'entity.verify.failed':
      return new ApiError('invalid_request', 'request/body is not valid UTF-8.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(
        'unsupported_media_type',
        'Unsupported body encoding: send application/json in UTF-8, uncompressed.',
      );
    case 'request.aborted':
    case 'request.size.invalid':
      return new ApiError('invalid_request', 'The request body was incomplete.');
    default:
      return undefined;
  }
};
