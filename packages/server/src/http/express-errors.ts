import { ApiError, type ErrorTranslator } from '../errors/index.js';

/**
 * Errors Express itself raises, in the API's words: a path segment the router could not
 * percent-decode (a `URIError`), and other http-errors client errors with `expose: true`
 * (https://github.com/jshttp/http-errors), whose messages are meant for the client — e.g. a
 * body whose Content-Encoding does not match it.
 */
export const translateExpressError: ErrorTranslator = (err) => {
  if (err instanceof URIError) {
    return new ApiError('invalid_request', 'The request path is not valid percent-encoding.');
  }
  if (!(err instanceof Error)) return undefined;
  const { expose, status } = err as Error & { expose?: unknown; status?: unknown };
  if (expose === true && typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError('invalid_request', `The request is invalid: ${err.message}.`);
  }
  return undefined;
};
