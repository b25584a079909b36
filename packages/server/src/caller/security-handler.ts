import type { Request } from 'express';

/**
 * The validator's handler for the contract's `bearerAuth` scheme. The validator itself only
 * checks that an `Authorization` header mentions "bearer"; the key's form, existence and
 * revocation were checked by `identifyCaller`, whose result decides here. A false answer
 * becomes 401 `unauthorized`.
 */
export function bearerAuth(req: Request): boolean {
  return req.res?.locals.caller?.kind === 'key';
}
