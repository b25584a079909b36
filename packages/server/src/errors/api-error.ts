import type { ErrorBody, ErrorCode } from '@petstore/types';

/**
 * The one registry every error response is built from: each documented `ErrorCode` with
 * its HTTP status and default message (the description's `ErrorCode` enum is the list;
 * `satisfies` makes a missing or unknown code a compile error).
 */
export const errorRegistry = {
  invalid_request: { status: 400, message: 'The request is invalid.' },
  unauthorized: {
    status: 401,
    message: 'Missing or invalid API key: send Authorization: Bearer <API_KEY>.',
  },
  not_found: { status: 404, message: 'The requested resource could not be found.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed on this path.' },
  idempotency_key_in_use: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed; retry after 1 second.',
  },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: {
    status: 415,
    message: 'Unsupported media type: send application/json.',
  },
  idempotency_key_reused: {
    status: 422,
    message: 'This Idempotency-Key was already used with a different request body.',
  },
  rate_limited: { status: 429, message: 'Rate limit exceeded.' },
  key_banned: { status: 429, message: 'This API key is temporarily banned.' },
  internal_error: {
    status: 500,
    message: 'An unexpected error occurred. Quote the X-Request-Id when reporting it.',
  },
  service_unavailable: { status: 503, message: 'The store is unavailable; retry after 5 seconds.' },
} as const satisfies Record<ErrorCode, { status: number; message: string }>;

/** The contract's limit on an error message (`ErrorMessage.maxLength`). */
export const MAX_MESSAGE_LENGTH = 1024;

/**
 * A message cut to the contract's limit: a message may quote what the request sent (a property
 * name, a media type), which can be long.
 */
function withinLimit(message: string): string {
  return message.length <= MAX_MESSAGE_LENGTH
    ? message
    : `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…`;
}

/**
 * An error the API answers with the documented Error body. Throw it (or pass it to
 * `next`) anywhere; the error middleware turns it into the response.
 *
 * @example
 * ```ts
 * throw new ApiError('not_found', `No pet with id ${id}.`);
 * throw new ApiError('rate_limited', undefined, { 'Retry-After': '30' });
 * ```
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers this error needs (`Allow` on 405, `Retry-After` on 429). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(withinLimit(message ?? errorRegistry[code].message));
    this.name = 'ApiError';
    this.code = code;
    this.status = errorRegistry[code].status;
    this.headers = headers;
  }

  /** The response body: `status` always equals the HTTP status. */
  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}
