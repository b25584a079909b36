import type { RequestHandler } from 'express';

/**
 * Parses the query string once. Express 5's `req.query` is a getter that parses the URL's query
 * anew on every read, and an API request reads it in several steps (the well-formed-strings and
 * integer checks, the validator, the handler): this keeps the first parse as the request's own
 * `query`, writable, as the validator expects (it coerces the values in place).
 */
export function parseQueryOnce(): RequestHandler {
  return (req, _res, next) => {
    Object.defineProperty(req, 'query', {
      value: req.query,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    next();
  };
}
