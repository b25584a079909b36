import type { Request } from 'express';

/**
 * The validator's handler for the contract's `bearerAuth` scheme: the contract's word on which
 * operations need a key. `requireCaller` has already refused callers without one (before the
 * body is read), so this confirms what `identifyCaller` found; a false answer would become 401.
 */
export function bearerAuth(req: Request): boolean {
  return req.res?.locals.caller?.kind === 'key';
}
