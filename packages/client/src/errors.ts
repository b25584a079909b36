import type { ErrorBody, ErrorCode } from '@petstore/types';
import type { RateLimitInfo } from './headers/rate-limit.js';

/**
 * Base class of every error the client throws. Error responses of the API are not thrown:
 * they come back as `{ error }` results. Messages name the method and path, never the
 * API key or any header.
 */
export class PetstoreClientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PetstoreClientError';
  }
}

/**
 * The request failed before a response arrived (DNS, refused connection, reset…). In a web
 * page, a cross-origin request the API does not allow for the page's origin (CORS) fails the
 * same way — browsers do not tell scripts why — so the message then says so.
 */
export class NetworkError extends PetstoreClientError {
  constructor(what: string, cause: unknown, url?: string) {
    super(`${what} failed before a response arrived${corsHint(url)}`, { cause });
    this.name = 'NetworkError';
  }
}

/** In a page on another origin than `url`'s: the CORS explanation; elsewhere nothing. */
function corsHint(url: string | undefined): string {
  const page = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  if (url === undefined || typeof page !== 'string' || page === 'null') return '';
  const api = new URL(url).origin;
  if (api === page) return '';
  return ` (from a page on ${page}, this is also how the browser reports a cross-origin request to ${api} that the API does not allow for this origin: its CORS settings must list ${page})`;
}

/** One attempt took longer than `timeoutMs` (headers and body together). */
export class TimeoutError extends PetstoreClientError {
  readonly timeoutMs: number;
  constructor(what: string, timeoutMs: number) {
    super(`${what} timed out after ${timeoutMs} ms`);
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's `AbortSignal` aborted the request (or a wait before a retry). */
export class AbortedError extends PetstoreClientError {
  constructor(what: string, reason: unknown) {
    super(`${what} was aborted`, { cause: reason });
    this.name = 'AbortedError';
  }
}

/** Why retrying stopped. */
export type GiveUpReason = 'attempts' | 'time';

export interface RetryBudgetExceededDetails {
  /** Attempts made (sent requests). */
  attempts: number;
  /** `attempts`: the maximum number of attempts is reached; `time`: the next wait would overrun the time budget. */
  reason: GiveUpReason;
  /** When the server said the request may be retried (`Retry-After`, or the rate-limit reset when throttling). */
  retryAt?: Date | undefined;
  /** The HTTP status of the last response, if the last attempt got one. */
  status?: number | undefined;
  /** The Error body of the last response, if it had one. */
  body?: ErrorBody | undefined;
  /** The rate-limit state of the last response. */
  rateLimit?: RateLimitInfo | undefined;
  /** The failure of the last attempt when it got no response (NetworkError, TimeoutError). */
  cause?: unknown;
}

/**
 * The client would retry (429, or a 5xx/network failure of a GET) but its budget is spent:
 * the maximum number of attempts is reached, or the wait the server asks for (`Retry-After`,
 * e.g. a 429 `key_banned` with minutes left) is longer than the time budget left. It fails
 * fast instead of waiting; `retryAt` says when to try again.
 *
 * @example
 * ```ts
 * try { await client.listPets(); } catch (e) {
 *   if (e instanceof RetryBudgetExceededError && e.retryAt) scheduleAt(e.retryAt);
 * }
 * ```
 */
export class RetryBudgetExceededError extends PetstoreClientError {
  readonly attempts: number;
  readonly reason: GiveUpReason;
  readonly retryAt: Date | undefined;
  readonly status: number | undefined;
  readonly body: ErrorBody | undefined;
  readonly rateLimit: RateLimitInfo | undefined;

  constructor(what: string, details: RetryBudgetExceededDetails) {
    const failure =
      details.cause instanceof Error ? ` (last failure: ${details.cause.message})` : '';
    const last =
      details.status === undefined
        ? failure
        : ` (last answer ${details.status}${details.body ? ` ${details.body.code}` : ''})`;
    const when = details.retryAt ? `; retry at ${details.retryAt.toISOString()}` : '';
    const why =
      details.reason === 'attempts'
        ? `after ${details.attempts} attempt(s)`
        : `after ${details.attempts} attempt(s): the next wait exceeds the retry time budget`;
    super(`${what} gave up ${why}${last}${when}`, { cause: details.cause });
    this.name = 'RetryBudgetExceededError';
    this.attempts = details.attempts;
    this.reason = details.reason;
    this.retryAt = details.retryAt;
    this.status = details.status;
    this.body = details.body;
    this.rateLimit = details.rateLimit;
  }
}

/**
 * An Error body turned into an exception, for APIs that cannot return a result (the
 * `listAllPets` iterator). Carries the body's `code`, `message` and `status`.
 */
export class PetstoreApiError extends PetstoreClientError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly body: ErrorBody;
  readonly rateLimit: RateLimitInfo | undefined;

  constructor(body: ErrorBody, rateLimit?: RateLimitInfo) {
    super(`${body.status} ${body.code}: ${body.message}`);
    this.name = 'PetstoreApiError';
    this.code = body.code;
    this.status = body.status;
    this.body = body;
    this.rateLimit = rateLimit;
  }
}

const ERROR_BODY_KEYS = ['code', 'message', 'status'] as const;

/** Whether `value` has the shape of the Error body (used on bodies read outside openapi-fetch). */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    ERROR_BODY_KEYS.every((key) => key in record) &&
    typeof record.code === 'string' &&
    typeof record.message === 'string' &&
    typeof record.status === 'number'
  );
}
