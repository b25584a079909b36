import type { RequestHandler } from 'express';
import { ApiError } from '../errors/index.js';
import { isUnderApi } from '../http/index.js';
import type { Caller } from './caller.js';

/** The protection space of our bearer challenges (RFC 9110 §11.5). */
export const REALM = 'petstore';

/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 9110 §11.6.1 requires one; RFC 6750 §3 gives
 * its form): `Bearer realm="petstore"`, plus `error="invalid_token"` when a credential was sent
 * and is not an active key.
 */
export function bearerChallenge(caller: Caller | undefined): string {
  return caller?.kind === 'anonymous' && caller.credential === 'invalid'
    ? `Bearer realm="${REALM}", error="invalid_token"`
    : `Bearer realm="${REALM}"`;
}

/** 401 `unauthorized` with its challenge. */
export function unauthorized(caller: Caller | undefined): ApiError {
  return new ApiError('unauthorized', undefined, { 'WWW-Authenticate': bearerChallenge(caller) });
}

/**
 * Every operation under `/v1` needs an active key (the contract's global `bearerAuth`); a path
 * elsewhere is a 404 without a key. Runs right after the rate limiter and before the body is read: a caller without a valid key gets
 * 401 whatever it sent, and never costs a JSON parse. A store failure met while looking the key
 * up (deferred by `identifyCaller` so the answer is counted) is passed on here.
 */
export function requireCaller(): RequestHandler {
  return (req, res, next) => {
    const { caller } = res.locals;
    if (caller.kind === 'key' || !isUnderApi(req.path)) return next();
    next(caller.lookupError ?? unauthorized(caller));
  };
}
