import type { ErrorBody } from '@petstore/types';
import {
  AbortedError,
  isErrorBody,
  PetstoreClientError,
  RetryBudgetExceededError,
} from '../errors.js';
import { parseRateLimit } from '../headers/rate-limit.js';
import { parseRetryAfter } from '../headers/retry-after.js';
import type { Clock, Random, Sleep } from '../time.js';
import { type FetchLike, sendAttempt } from './attempt.js';
import { backoffDelay } from './backoff.js';
import type { ResolvedRetryOptions } from './options.js';
import { shouldRetryFailure, shouldRetryStatus } from './policy.js';
import type { RateLimitTracker } from './throttle.js';

export interface RetryingFetchOptions {
  fetch: FetchLike;
  /** Undefined: no retries (every outcome goes back to the caller as is). */
  retry: ResolvedRetryOptions | undefined;
  timeoutMs: number | undefined;
  /** Present when proactive throttling is on. */
  throttle: RateLimitTracker | undefined;
  /** Always present: it records the last rate-limit state for `client.rateLimit`. */
  tracker: RateLimitTracker;
  clock: Clock;
  sleep: Sleep;
  random: Random;
}

type Outcome = { response: Response; failure?: never } | { response?: never; failure: unknown };

/** `GET /v1/pets`: the method and path, without the query (it may hold a cursor) or credentials. */
function describe(request: Request): string {
  return `${request.method} ${new URL(request.url).pathname}`;
}

async function readErrorBody(response: Response): Promise<ErrorBody | undefined> {
  try {
    const body: unknown = await response.clone().json();
    return isErrorBody(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The client's `fetch`, beneath openapi-fetch's middleware chain: openapi-fetch calls it
 * once per operation call, after the `onRequest` middleware (so the request already
 * carries the bearer token) and before `onResponse`, which sees only the final response.
 *
 * Per attempt it applies the time limit; between attempts it waits `Retry-After` (on 429,
 * RFC 9110 §10.2.3, RFC 6585 §4; on a 409 or 503 that sends it) or else exponential backoff
 * with full jitter, within `maxAttempts` and the time budget, and stops at once when the
 * caller's signal aborts. What is retried is `policy.ts`'s call: every request on 429; a
 * request safe to repeat (a GET, or a POST with an `Idempotency-Key`, re-sent with the same
 * key and body) also on 5xx, time-outs and network failures.
 */
export function createRetryingFetch(options: RetryingFetchOptions): FetchLike {
  const { clock, sleep, random, retry, throttle, tracker } = options;

  return async (original) => {
    const what = describe(original);
    const signal = original.signal;
    // Buffered once so that a POST can be re-sent with the same body (and the same headers,
    // its Idempotency-Key among them: every attempt is a copy of `original`).
    const body = original.body === null ? null : await original.arrayBuffer();
    const started = clock.now();
    const maxAttempts = retry?.maxAttempts ?? 1;

    const wait = async (ms: number) => {
      try {
        await sleep(ms, signal);
      } catch (reason) {
        throw new AbortedError(what, reason);
      }
    };
    const fitsBudget = (ms: number) =>
      retry === undefined || clock.now() - started + ms <= retry.budgetMs;

    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) throw new AbortedError(what, signal.reason);

      const hold = throttle?.waitMs(clock.now()) ?? 0;
      if (hold > 0) {
        if (!fitsBudget(hold)) {
          throw new RetryBudgetExceededError(what, {
            attempts: attempt - 1,
            reason: 'time',
            retryAt: new Date(clock.now() + hold),
            rateLimit: tracker.last,
          });
        }
        await wait(hold);
      }

      const request = new Request(original, { body, signal });
      let outcome: Outcome;
      try {
        outcome = {
          response: await sendAttempt(request, {
            fetch: options.fetch,
            sleep,
            timeoutMs: options.timeoutMs,
            what,
          }),
        };
      } catch (failure) {
        if (failure instanceof AbortedError) throw failure;
        outcome = { failure };
      }

      const rateLimit = outcome.response
        ? parseRateLimit(outcome.response.headers, clock.now())
        : undefined;
      tracker.observe(rateLimit);

      const retryable =
        retry !== undefined &&
        (outcome.response
          ? shouldRetryStatus(original, outcome.response.status)
          : shouldRetryFailure(original) && outcome.failure instanceof PetstoreClientError);
      if (!retryable) {
        if (outcome.response) return outcome.response;
        throw outcome.failure;
      }

      const retryAfterMs = outcome.response
        ? parseRetryAfter(outcome.response.headers.get('Retry-After'), clock.now())
        : undefined;
      const delay = retryAfterMs ?? backoffDelay(attempt, retry, random);
      const budgetLeft = fitsBudget(delay);
      if (attempt >= maxAttempts || !budgetLeft) {
        throw new RetryBudgetExceededError(what, {
          attempts: attempt,
          reason: budgetLeft ? 'attempts' : 'time',
          retryAt: retryAfterMs === undefined ? undefined : new Date(clock.now() + retryAfterMs),
          status: outcome.response?.status,
          body: outcome.response ? await readErrorBody(outcome.response) : undefined,
          rateLimit,
          cause: outcome.failure,
        });
      }
      await outcome.response?.body?.cancel().catch(() => {});
      retry.onRetry?.({
        request: what,
        attempt,
        delayMs: delay,
        waitFrom: retryAfterMs === undefined ? 'backoff' : 'retry-after',
        status: outcome.response?.status,
        error: outcome.failure,
      });
      await wait(delay);
    }
  };
}
