import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { gatherHeader } from './response-headers.js';

/** A caller's id is echoed only when it is a short token of safe characters (no header injection, no log spam). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Gives every request an id, in `res.locals.requestId` and the `X-Request-Id` response header:
 * the caller's own `X-Request-Id` when it is a short safe token, else a new UUID.
 */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    gatherHeader(res, 'X-Request-Id', id);
    next();
  };
}
