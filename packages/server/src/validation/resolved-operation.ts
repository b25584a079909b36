import type { IncomingMessage } from 'node:http';

/** What express-openapi-validator records on a request it resolved to an operation. */
interface Resolved {
  openapi?: { schema?: { operationId?: string }; openApiRoute?: string };
}

/**
 * The contract's operationId of the operation the validator resolved this request to (HEAD
 * resolves to its GET's), or undefined before the validator ran and when nothing matched.
 */
export const operationIdOf = (req: IncomingMessage): string | undefined =>
  (req as Resolved).openapi?.schema?.operationId;

/**
 * The request's path parameters, by the names of the contract's path template, as written in
 * the request (percent-decoded, not coerced): `{ petId: '0x10' }` for `/v1/pets/0x10`. The
 * validator's own `pathParams` are coerced in place by its request validation (`0x10` becomes
 * 16), and Express's `req.params` is reset by every router layer. The contract's parameters
 * are whole path segments, so the request's segments line up with the template's.
 */
export function pathParamsOf(req: IncomingMessage & { path: string }): Record<string, string> {
  const template = (req as Resolved).openapi?.openApiRoute;
  if (template === undefined) return {};
  const segments = req.path.split('/');
  const params: Record<string, string> = {};
  template.split('/').forEach((part, index) => {
    const name = /^\{(.+)\}$/.exec(part)?.[1];
    const value = segments[index];
    if (name !== undefined && value !== undefined) params[name] = decodeSegment(value);
  });
  return params;
}

/** A path segment percent-decoded (as the validator matched it; as written if it cannot be). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
