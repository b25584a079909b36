import type { RequestHandler } from 'express';
import { resolveRef } from '../contract.js';
import { ApiError } from '../errors/index.js';

/** An integer as the contract means it in a query: decimal digits, an optional minus sign. */
const INTEGER_LITERAL = /^-?(0|[1-9][0-9]*)$/;

type Description = { paths?: Record<string, Record<string, unknown>> };
type Parameter = { in?: string; name?: string; schema?: { type?: unknown } };

/** The names of the query parameters the description types as integers (e.g. `limit`). */
export function integerQueryParameters(description: Description): Set<string> {
  const names = new Set<string>();
  for (const item of Object.values(description.paths ?? {})) {
    const lists = [
      item.parameters,
      ...Object.values(item).map((op) => (op as { parameters?: unknown })?.parameters),
    ];
    for (const list of lists) {
      if (!Array.isArray(list)) continue;
      for (const parameter of list.map((p) => resolveRef<Parameter>(description, p))) {
        if (parameter.in === 'query' && parameter.schema?.type === 'integer' && parameter.name) {
          names.add(parameter.name);
        }
      }
    }
  }
  return names;
}

/**
 * Refuses an integer query parameter not written as a plain decimal integer. The validator
 * coerces query values with JavaScript's Number(), which reads `5e1`, `0x10`, ` 5`, `+5` as
 * numbers and `Infinity` or `1e400` as infinite ones (which then reached the store as a 500);
 * the contract's integers are decimal digits. Runs before the validator, on the raw text.
 */
export function requireIntegerLiterals(names: ReadonlySet<string>): RequestHandler {
  return (req, _res, next) => {
    const query = req.query as Record<string, unknown>;
    for (const name of names) {
      const value = query[name];
      if (typeof value === 'string' && !INTEGER_LITERAL.test(value)) {
        return next(
          new ApiError(
            'invalid_request',
            `request/query/${name} must be an integer, written in decimal digits.`,
          ),
        );
      }
    }
    next();
  };
}
