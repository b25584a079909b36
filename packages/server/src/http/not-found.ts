import type { RequestHandler } from 'express';
import { ApiError } from '../errors/index.js';

/** The last route: nothing matched the path, so 404 `not_found`. */
export function notFound(): RequestHandler {
  return (_req, _res, next) => {
    next(new ApiError('not_found', 'Nothing exists at this path.'));
  };
}
