/**
 * Who is calling: read once from the `Authorization` header by `identifyCaller`, typed on
 * `res.locals.caller` for the rate limiter, `requireCaller` (401 with its challenge, the
 * contract's security) and the handlers.
 */
export { bearerToken } from './bearer-token.js';
export type { AnonymousCaller, Caller, KeyCaller } from './caller.js';
export { identifyCaller, type IdentifyCallerOptions } from './identify-caller.js';
export { KeyCache, type KeyCacheOptions } from './key-cache.js';
export {
  BEARER_SCHEME,
  bearerChallenge,
  operationsOpenWithoutKey,
  REALM,
  requireCaller,
  unauthorized,
} from './require-caller.js';
