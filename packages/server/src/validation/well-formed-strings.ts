import type { RequestHandler } from 'express';
import { ApiError } from '../errors/index.js';

/**
 * Whether every string in `value` (a parsed JSON body or query), values and property names, is
 * well-formed Unicode (`String.prototype.isWellFormed`: no lone UTF-16 surrogate, a half of a
 * pair without the other): what almost every request has, answered without building a path for
 * each value (`findMalformedString` does, and says where once this says no). A stack of its own,
 * as below.
 */
export function isWellFormedDeep(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (typeof value !== 'object' || value === null) return true;
  const pending: object[] = [value];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    for (const key of Object.keys(item)) {
      if (!key.isWellFormed()) return false;
      const child: unknown = (item as Record<string, unknown>)[key];
      if (typeof child === 'string') {
        if (!child.isWellFormed()) return false;
      } else if (typeof child === 'object' && child !== null) {
        pending.push(child);
      }
    }
  }
  return true;
}

/**
 * Where in `value` (a parsed JSON body or query) a string — a value or a property name — is not
 * well-formed Unicode, as a path (`name`, `tags/0`), or undefined when every string is. It walks
 * with a stack of its own, not recursion: a body may nest thousands of levels deep.
 */
export function findMalformedString(value: unknown): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, at] = next;
    if (typeof item === 'string') {
      if (!item.isWellFormed()) return at;
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, child] of Object.entries(item)) {
      if (!key.isWellFormed()) return at === '' ? '(a property name)' : `${at}/(a property name)`;
      pending.push([child, at === '' ? key : `${at}/${key}`]);
    }
  }
  return undefined;
}

/**
 * Refuses a request whose JSON body or query holds a string that is not well-formed Unicode: a
 * lone surrogate (`"\ud800"` is valid JSON text, but names no character). No store can keep it
 * (SQLite and PostgreSQL keep UTF-8, so it would come back as U+FFFD, changed), so it is a 400
 * naming the field, before anything is validated or stored. Paths and headers cannot carry one:
 * Node decodes headers as Latin-1 and percent-decoding rejects ill-formed UTF-8.
 */
export function requireWellFormedStrings(): RequestHandler {
  return (req, _res, next) => {
    if (isWellFormedDeep(req.body) && isWellFormedDeep(req.query)) return next();
    for (const [where, value] of [
      ['body', req.body as unknown],
      ['query', req.query as unknown],
    ] as const) {
      const field = findMalformedString(value);
      if (field === undefined) continue;
      const name = field === '' ? `request/${where}` : `request/${where}/${field}`;
      return next(
        new ApiError(
          'invalid_request',
          `${name} must be well-formed Unicode: it holds a lone UTF-16 surrogate.`,
        ),
      );
    }
    next();
  };
}
