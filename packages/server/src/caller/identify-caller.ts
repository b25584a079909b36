import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Clock } from '../clock.js';
import { type ApiKeyRecord, quotaOf, type Quota } from '../domain.js';
import { hashApiKey, isWellFormedApiKey } from '../keys/index.js';
import type { ApiKeyRepository, Storage } from '../storage/index.js';
import { bearerToken } from './bearer-token.js';
import { KeyCache } from './key-cache.js';
import type { Caller } from './caller.js';

export interface IdentifyCallerOptions {
  keys: Pick<ApiKeyRepository, 'findActiveByHash'>;
  /** The store's revisions: read once per request with a well-formed key, kept for the routes. */
  revisions: Storage['revisions'];
  /** Reads the time for the key cache (and a rotated key's grace period). */
  clock: Clock;
  /** The quota of callers without a valid key, counted per client address. */
  anonymousQuota: Quota;
}

/**
 * Finds the caller from `Authorization: Bearer psk_…` and puts it in `res.locals.caller`: the
 * active key it names, or an anonymous caller (no credential, or one that is malformed,
 * unknown or revoked) counted by client address (`req.ip`, so `trust proxy` applies). It never
 * rejects: the rate limiter counts every caller first, then `requireCaller` answers 401.
 *
 * A key found in the cache (valid at the store's current key revision) is answered
 * synchronously: only a lookup in the store returns a promise. The revisions read for that are
 * the request's (`res.locals.revisions`): the routes check their own caches against the same
 * read, not another (SQLite's change counter is read once per request, not twice).
 */
export function identifyCaller({
  keys,
  revisions,
  clock,
  anonymousQuota,
}: IdentifyCallerOptions): RequestHandler {
  const cache = new KeyCache();
  const anonymous = (
    req: Request,
    credential: 'none' | 'invalid',
    lookupError?: unknown,
  ): Caller => ({
    kind: 'anonymous',
    credential,
    subject: { kind: 'address', address: req.ip ?? 'unknown' },
    quota: anonymousQuota,
    ...(lookupError === undefined ? {} : { lookupError }),
  });
  const ofKey = (key: ApiKeyRecord): Caller => ({
    kind: 'key',
    key,
    subject: { kind: 'key', keyId: key.id },
    quota: quotaOf(key),
  });

  async function lookUp(
    req: Request,
    res: Response,
    next: NextFunction,
    token: string,
    revision: number | undefined,
    now: number,
  ): Promise<void> {
    let key: ApiKeyRecord | undefined;
    try {
      key = await keys.findActiveByHash(hashApiKey(token));
    } catch (error) {
      res.locals.caller = anonymous(req, 'invalid', error);
      return next();
    }
    if (key) cache.set(token, key, revision, now);
    res.locals.caller = key ? ofKey(key) : anonymous(req, 'invalid');
    next();
  }

  return (req, res, next) => {
    const header = req.headers.authorization;
    const token = bearerToken(header);
    if (token === undefined || !isWellFormedApiKey(token)) {
      res.locals.caller = anonymous(req, header === undefined ? 'none' : 'invalid');
      return next();
    }
    const now = clock.now();
    const read = revisions();
    res.locals.revisions = read;
    const revision = read.keys;
    const key = cache.get(token, revision, now);
    if (key === undefined) return lookUp(req, res, next, token, revision, now);
    res.locals.caller = ofKey(key);
    next();
  };
}
