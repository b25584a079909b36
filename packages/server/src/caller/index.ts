/**
 * Who is calling: read once from the `Authorization` header by `identifyCaller`, then typed on
 * `res.locals.caller` for the rate limiter, the security check and the handlers.
 */
export { bearerToken } from './bearer-token.js';
export type { AnonymousCaller, Caller, KeyCaller } from './caller.js';
export {
  failIfCallerUnknown,
  identifyCaller,
  type IdentifyCallerOptions,
} from './identify-caller.js';
export { bearerAuth } from './security-handler.js';
