import type { RequestHandler } from 'express';
import { ApiError } from '../errors/index.js';
import { isUnderApi } from '../http/index.js';
import type { Caller } from './caller.js';

/** The protection space of our bearer challenges (RFC 9110 §11.5). */
export const REALM = 'petstore';

/** The contract's security scheme for API keys (`components.securitySchemes`). */
export const BEARER_SCHEME = 'bearerAuth';

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

type SecurityRequirement = Record<string, unknown>;
interface Description {
  security?: SecurityRequirement[];
  paths?: Record<string, Record<string, { security?: SecurityRequirement[] } | unknown>>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * The operations of `description` that a caller could reach without a `bearerAuth` key: those
 * whose security requirements (their own, else the description's) are empty, or offer an
 * alternative without the scheme (OpenAPI 3.1 §4.8.30: any one requirement object satisfies
 * it; `{}` makes the operation public). As `METHOD /path` strings; none in our contract.
 */
export function operationsOpenWithoutKey(description: Description): string[] {
  const open: string[] = [];
  for (const [path, item] of Object.entries(description.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const requirements =
        (operation as { security?: SecurityRequirement[] }).security ?? description.security ?? [];
      const keyAlways =
        requirements.length > 0 &&
        requirements.every((requirement) => Object.hasOwn(requirement, BEARER_SCHEME));
      if (!keyAlways) open.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return open;
}

/**
 * Enforces the contract's security: every operation under `/v1` needs an active key
 * (`bearerAuth`), so a caller without one gets 401 on any API path, known or not, before its
 * body is read or the validator runs (a path elsewhere is a 404 without a key). Runs right
 * after the rate limiter, so the 401 is counted and carries the rate-limit headers. A store
 * failure met while looking the key up (deferred by `identifyCaller`) is passed on here.
 *
 * This is the one place the contract's security is enforced: the validator's own security step
 * is off, as it could only repeat this check. The contract is read when the app is built, and
 * an operation that does not require the key refuses to start the server rather than be
 * served as if it did.
 *
 * @example
 * ```ts
 * app.use(requireCaller(loadDescription()));
 * ```
 */
export function requireCaller(description: Description): RequestHandler {
  const open = operationsOpenWithoutKey(description);
  if (open.length > 0) {
    throw new Error(
      `The contract has operations that do not require ${BEARER_SCHEME}: ${open.join(', ')}. ` +
        'requireCaller refuses every API request without a key; teach it which operations are public first.',
    );
  }
  return (req, res, next) => {
    const { caller } = res.locals;
    if (caller.kind === 'key' || !isUnderApi(req.path)) return next();
    next(caller.lookupError ?? unauthorized(caller));
  };
}
