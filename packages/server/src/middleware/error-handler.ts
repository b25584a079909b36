import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { ApiError } from '../errors.js';
import { BODY_LIMIT_BYTES } from './json-body.js';

/** The shape of express-openapi-validator's errors (its HttpError subclasses). */
interface ValidatorError {
  status: number;
  message: string;
  headers?: Record<string, string>;
  errors: { path?: string; message?: string; errorCode?: string }[];
}

/** The shape of body-parser's errors (https://github.com/expressjs/body-parser#errors). */
interface BodyParserError {
  type: string;
  status?: number;
}

const isValidatorError = (err: unknown): err is ValidatorError =>
  typeof err === 'object' &&
  err !== null &&
  typeof (err as ValidatorError).status === 'number' &&
  Array.isArray((err as ValidatorError).errors);

const isBodyParserError = (err: unknown): err is BodyParserError =>
  typeof err === 'object' && err !== null && typeof (err as BodyParserError).type === 'string';

/**
 * The validator's first error as a sentence naming the field: `request/body/name must be string`.
 * An unknown property's name is only in the error's path (`/body/id`), so it is read from there.
 */
export function describeValidationError(err: ValidatorError): string {
  const first = err.errors[0];
  if (first === undefined) return err.message;
  const where = `request${(first.path ?? '').replace(/\./g, '/').replace(/^\/?/, '/')}`.replace(
    /\/$/,
    '',
  );
  const what = first.message ?? err.message;
  if (first.errorCode?.startsWith('additionalProperties')) {
    return `${where} is not allowed: the body must not have additional properties`;
  }
  if (first.errorCode?.startsWith('required')) {
    // The path ends with the missing property, which the message names already.
    return `${where.replace(/\/[^/]*$/, '')} ${what}`;
  }
  if (/^Unknown query parameter/.test(what)) {
    return `${where} is not allowed: not a query parameter of this operation`;
  }
  return `${where} ${what}`;
}

/** 415, naming the media type sent when it is a plain `type/subtype` (safe to echo). */
function unsupportedMediaType(contentType: string | undefined): ApiError {
  const type = contentType?.split(';')[0]?.trim() ?? '';
  return /^[\w.+-]{1,64}\/[\w.+-]{1,64}$/.test(type)
    ? new ApiError(
        'unsupported_media_type',
        `Unsupported media type ${type}: send application/json.`,
      )
    : new ApiError('unsupported_media_type');
}

/** Turns anything thrown or passed to `next` into the `ApiError` the client will see. */
export function toApiError(err: unknown, contentType?: string): ApiError {
  if (err instanceof ApiError) return err;
  if (isBodyParserError(err)) {
    switch (err.type) {
      case 'entity.parse.failed':
        return new ApiError('invalid_request', 'request/body is not well-formed JSON.');
      case 'entity.too.large':
        return new ApiError(
          'payload_too_large',
          `The request body exceeds the limit of ${BODY_LIMIT_BYTES} bytes.`,
        );
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return new ApiError(
          'unsupported_media_type',
          'Unsupported body encoding: send application/json in UTF-8, uncompressed.',
        );
      case 'request.aborted':
      case 'request.size.invalid':
        return new ApiError('invalid_request', 'The request body was incomplete.');
    }
  }
  if (isValidatorError(err)) {
    switch (err.status) {
      case 400:
        return new ApiError('invalid_request', describeValidationError(err));
      case 401:
        return new ApiError('unauthorized');
      case 404:
        return new ApiError('not_found', 'Nothing exists at this path.');
      case 405: {
        const allow = (err.headers?.Allow ?? '')
          .split(',')
          .map((method) => method.trim().toUpperCase())
          .filter(Boolean)
          .sort()
          .join(', ');
        return new ApiError(
          'method_not_allowed',
          `This path does not support this method; use ${allow}.`,
          { Allow: allow },
        );
      }
      case 413:
        return new ApiError('payload_too_large');
      case 415:
        return unsupportedMediaType(contentType);
    }
  }
  if (err instanceof URIError) {
    // The router could not percent-decode a path segment (it marks these 400).
    return new ApiError('invalid_request', 'The request path is not valid percent-encoding.');
  }
  if (isClientHttpError(err)) {
    // Other client errors raised by Express and its body parser (http-errors with
    // `expose: true`, whose messages are meant for the client), e.g. a body whose
    // Content-Encoding does not match it.
    return new ApiError('invalid_request', `The request is invalid: ${err.message}.`);
  }
  return new ApiError('internal_error');
}

/** An http-errors client error (https://github.com/jshttp/http-errors): 4xx, safe to show. */
function isClientHttpError(err: unknown): err is { status: number; message: string } {
  if (!(err instanceof Error)) return false;
  const { expose, status } = err as Error & { expose?: unknown; status?: unknown };
  return expose === true && typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * The one error middleware: every failure becomes the documented Error body with its status
 * and headers. Unexpected failures (and responses that break the contract) answer 500
 * `internal_error` with no internals and are logged with the request id.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    const apiError = toApiError(err, req.headers['content-type']);
    if (apiError.status >= 500) {
      logger.error(
        { err, requestId: res.locals.requestId, method: req.method, url: req.originalUrl },
        'unexpected error',
      );
    }
    if (res.headersSent) return next(err);
    res.status(apiError.status).set(apiError.headers).json(apiError.toBody());
  };
}
