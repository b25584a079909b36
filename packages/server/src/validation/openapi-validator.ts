import type { RequestHandler } from 'express';
import { middleware as openApiValidatorMiddleware } from 'express-openapi-validator';
import { loadDescription } from '../contract.js';
import { ApiError, type ErrorTranslator } from '../errors/index.js';

export interface OpenApiValidationOptions {
  /** Also check every JSON response against the contract (a mismatch becomes a 500). */
  validateResponses: boolean;
}

/**
 * The steps of express-openapi-validator 5.6 that run per request, by their function names.
 * `pathParamsMiddleware` is left out: all it does is install `app.param` handlers for Express
 * route parameters, which we have none of (the operations are dispatched by operationId and
 * read their path parameters with `pathParamsOf`), and it costs a promise hop per request.
 */
const VALIDATOR_STEPS = new Set(['metadataMiddleware', 'requestMiddleware', 'responseMiddleware']);

/**
 * express-openapi-validator over the bundled description: it resolves the operation, checks
 * parameters and body (400, 415; unknown query parameters and body properties are errors),
 * answers 404/405 for unknown paths/methods under `/v1`, and, when asked, validates responses.
 * The schemas are compiled on first use, which is why the server warms up before it listens.
 *
 * Two of its steps are off, as they could only repeat work done elsewhere: security
 * (`requireCaller` enforces the contract's `bearerAuth` before any body is read, and refuses to
 * start on an operation that does not require it) and multipart parsing (the contract has no
 * `multipart/form-data` body). Each cost an `async` step per request (4–6 % of a list
 * request's CPU, measured with the path-parameter step; docs/benchmarks.md, *Changes that
 * mattered*).
 */
export function openApiValidation({
  validateResponses,
}: OpenApiValidationOptions): RequestHandler[] {
  const steps = openApiValidatorMiddleware({
    apiSpec: withHeadOperations(loadDescription()) as never,
    // The bundle is linted and validated against the OpenAPI 3.1 schema in CI (packages/types).
    validateApiSpec: false,
    validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    fileUploader: false,
    validateFormats: true,
    ignoreUndocumented: false,
  }) as unknown as RequestHandler[];
  const kept = steps.filter((step) => VALIDATOR_STEPS.has(step.name));
  const expected = validateResponses ? 3 : 2;
  if (kept.length !== expected) {
    // A new version of the validator named its steps otherwise: better no server than one that
    // silently skips validation.
    throw new Error(
      `express-openapi-validator's steps are ${steps.map((step) => step.name).join(', ')}; expected ${[...VALIDATOR_STEPS].slice(0, expected).join(', ')}.`,
    );
  }
  return kept;
}

/**
 * The description as the validator sees it: every `get` operation also answers `head` (RFC 9110
 * §9.3.2: same status and headers, no body), so HEAD requests are authenticated and validated
 * like GETs, and a 405's `Allow` lists HEAD wherever GET is. Express routes HEAD to the GET
 * handlers, and Node sends no body for it. Only this in-memory copy changes: the contract itself
 * says it in prose, as OpenAPI has no "HEAD like GET".
 */
export function withHeadOperations(description: Record<string, unknown>): Record<string, unknown> {
  const paths = (description.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const item of Object.values(paths)) {
    if (item.get !== undefined && item.head === undefined) item.head = item.get;
  }
  return description;
}

/** The shape of express-openapi-validator's errors (its HttpError subclasses). */
interface ValidatorError {
  status: number;
  message: string;
  headers?: Record<string, string>;
  errors: { path?: string; message?: string; errorCode?: string }[];
}

const isValidatorError = (err: unknown): err is ValidatorError =>
  typeof err === 'object' &&
  err !== null &&
  typeof (err as ValidatorError).status === 'number' &&
  Array.isArray((err as ValidatorError).errors);

/** What a field's pattern asks for, in words (a regular expression is not a message). */
const patternMessages: Record<string, string> = {
  'request/headers/idempotency-key':
    'must be 1 to 255 printable ASCII characters without space, " or \\, optionally in double quotes',
  'request/headers/if-none-match':
    'must be * or a comma-separated list of entity tags such as "5f3c9a1e0b7d4c2a"',
  'request/body/name': 'must not contain control characters (U+0000 to U+001F, U+007F)',
  'request/query/cursor':
    'is not a cursor this service issued: follow the Link header of the previous page.',
};

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
  if (/malformed uri/i.test(what)) {
    // A path parameter the validator could not percent-decode (its message quotes the path).
    return 'The request path is not valid percent-encoding.';
  }
  if (/^Unknown query parameter/.test(what)) {
    return `${where} is not allowed: not a query parameter of this operation`;
  }
  if (first.errorCode?.startsWith('pattern')) {
    return `${where} ${patternMessages[where] ?? 'does not have the documented form'}`;
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

/** The validator's errors in the API's words. */
export const translateValidatorError: ErrorTranslator = (err, req) => {
  if (!isValidatorError(err)) return undefined;
  switch (err.status) {
    case 400:
      return new ApiError('invalid_request', describeValidationError(err));
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
      return unsupportedMediaType(req.headers['content-type']);
    default:
      return undefined;
  }
};
