import type { RequestHandler } from 'express';
import type { ApiKeyRecord, ApiKeyRepository } from '../storage/store.js';
import { bearerToken, hashApiKey, isWellFormedApiKey } from './api-key.js';

export interface IdentifyCallerOptions {
  keys: ApiKeyRepository;
  /**
   * A per-process key recognised without the store, used only by the start-up warm-up
   * requests (see `warmUp`). Returns the record to use, or undefined.
   */
  internalKey?: (hash: string) => ApiKeyRecord | undefined;
}

/**
 * Finds the caller's active API key from `Authorization: Bearer psk_…` and puts it in
 * `res.locals.apiKey` (undefined when absent, malformed, unknown or revoked). It never
 * rejects: the rate limiter counts anonymous callers by address, and the validator's
 * `bearerAuth` security handler answers 401 for operations that need a key.
 */
export function identifyCaller({ keys, internalKey }: IdentifyCallerOptions): RequestHandler {
  return async (req, res, next) => {
    res.locals.apiKey = undefined;
    const token = bearerToken(req.headers.authorization);
    if (token === undefined || !isWellFormedApiKey(token)) return next();
    const hash = hashApiKey(token);
    try {
      res.locals.apiKey = internalKey?.(hash) ?? (await keys.findActiveByHash(hash));
    } catch (error) {
      // The store failed: count the caller by address first (so even this 500 carries the
      // X-RateLimit-* headers the contract promises), then fail in `failIfCallerUnknown`.
      res.locals.callerLookupError = error;
    }
    next();
  };
}

/**
 * Runs after the rate limiter: passes on the store failure `identifyCaller` deferred, if any
 * (it becomes a 500 `internal_error`).
 */
export function failIfCallerUnknown(): RequestHandler {
  return (_req, res, next) => {
    next(res.locals.callerLookupError);
  };
}

/** The caller's active key, as `identifyCaller` found it. */
export function callerKey(locals: Record<string, unknown>): ApiKeyRecord | undefined {
  return locals.apiKey as ApiKeyRecord | undefined;
}
