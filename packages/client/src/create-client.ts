import type { GetPetPath, ListPetsQuery, NewPet, Pet, paths } from '@petstore/types';
import createClient, { type Client } from 'openapi-fetch';
import { withCallSignal } from './caller-signal.js';
import {
  ConditionalCache,
  type ConditionalCacheStore,
  createCachingFetch,
} from './cache/conditional-cache.js';
import { idempotencyKeyField, newIdempotencyKey } from './headers/idempotency-key.js';
import { parseRateLimit, type RateLimitInfo } from './headers/rate-limit.js';
import { assertApiKey, bearerAuth } from './middleware/auth.js';
import {
  defaultOnDeprecation,
  deprecationWarnings,
  type OnDeprecation,
} from './middleware/deprecation.js';
import { type TraceContext, traceContextHeaders } from './middleware/trace-context.js';
import { type ListAllPetsFilter, listAllPets } from './pagination.js';
import {
  type CreatePetResult,
  type PetstoreResult,
  type ResultContext,
  toCreateResult,
  toResult,
} from './result.js';
import type { FetchLike } from './retry/attempt.js';
import { type RetryOptions, resolveRetryOptions } from './retry/options.js';
import { createRetryingFetch } from './retry/retrying-fetch.js';
import { RateLimitTracker } from './retry/throttle.js';
import {
  type Clock,
  type Random,
  type Sleep,
  systemClock,
  systemRandom,
  systemSleep,
} from './time.js';

/** Options of `createPetstoreClient`. Only `baseUrl` and `apiKey` are required. */
export interface PetstoreClientOptions {
  /** The API's base address, version segment included: `https://api.petstore.example/v1`. */
  baseUrl: string;
  /** Your API key; sent as `Authorization: Bearer <apiKey>` and never shown in errors. */
  apiKey: string;
  /** The `fetch` to send requests with (default: the global `fetch`, looked up per call). */
  fetch?: FetchLike;
  /** Retry options, or `false` to return every response (429 and 5xx included) as is. */
  retry?: RetryOptions | false;
  /** Time limit of each attempt, headers and body together, in ms (default 30 000); `false` for none. */
  timeoutMs?: number | false;
  /**
   * Called when a response carries `Deprecation`/`Sunset`. Default: one `console.warn` per
   * operation per process naming the sunset date and the replacement.
   */
  onDeprecation?: OnDeprecation;
  /**
   * Proactive throttling: when the last response said a window is used up
   * (`X-RateLimit-Remaining: 0`, or `r=0` in `RateLimit`), hold the next request until that
   * window resets instead of collecting a 429 (default false).
   */
  throttle?: boolean;
  /**
   * Conditional GETs: keep the `ETag` and body of each `getPet` and `listPets` page and send
   * `If-None-Match` on the next identical request; a `304` returns the kept body
   * (`notModified: true`). `true` for a `ConditionalCache` of this client's own (100 entries),
   * or a store to use (shareable between clients: entries are per API key). Default off.
   */
  cache?: boolean | ConditionalCacheStore;
  /**
   * Distributed tracing: called per request for the caller's current W3C trace context,
   * sent as `traceparent` (and `tracestate`), so the server's span continues the caller's
   * trace (with OpenTelemetry: `propagation.inject(context.active(), carrier)`). Default: none
   * sent, and the server starts a trace of its own.
   */
  traceContext?: () => TraceContext | undefined;
  /** The time source (default `Date.now`); inject to test without waiting. */
  clock?: Clock;
  /** The timer used for backoff, throttling and time limits (default `setTimeout`). */
  sleep?: Sleep;
  /** The jitter source, a number in [0, 1) (default `Math.random`). */
  random?: Random;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call, including any wait before a retry (the call rejects with `AbortedError`). */
  signal?: AbortSignal;
}

/** Options of `createPet`. */
export interface CreatePetOptions extends CallOptions {
  /**
   * The `Idempotency-Key` of this create (1 to 255 printable ASCII characters without space,
   * `"` or `\`; best a random UUID). Default: a fresh random UUID per call. Every retry of the
   * call re-sends it; pass the same key again to retry a create yourself, e.g. after the
   * client gave up (the server keeps keys for 24 hours).
   */
  idempotencyKey?: string;
}

/** The typed Pet Store client returned by `createPetstoreClient`. */
export interface PetstoreClient {
  /** `GET /pets`: one page of pets, filtered by `status`, at most `limit` (1–100, default 20). */
  listPets(query?: ListPetsQuery, options?: CallOptions): Promise<PetstoreResult<Pet[]>>;
  /**
   * `POST /pets`: adds a pet; the result carries its assigned `id`. Sent with an
   * `Idempotency-Key`, so a retry (the client's, on a lost answer, or yours with the same
   * key) never adds it twice; `replayed` says the answer is the earlier create's.
   */
  createPet(pet: NewPet, options?: CreatePetOptions): Promise<CreatePetResult>;
  /**
   * `GET /pets/{petId}`: one pet.
   * @deprecated Removed on 2030-12-05; use `listPets` with the `status` filter.
   */
  getPet(petId: GetPetPath['petId'], options?: CallOptions): Promise<PetstoreResult<Pet>>;
  /** Every pet matching `filter`, following the `next` links page after page. */
  listAllPets(
    filter?: ListAllPetsFilter,
    options?: CallOptions,
  ): AsyncGenerator<Pet, void, undefined>;
  /** The last rate-limit state any response reported. */
  readonly rateLimit: RateLimitInfo | undefined;
  /** The underlying openapi-fetch client, with the same auth, retries and middleware. */
  readonly raw: Client<paths>;
}

const DEFAULT_TIMEOUT_MS = 30_000;

function resolveTimeout(timeoutMs: number | false | undefined): number | undefined {
  if (timeoutMs === false) return undefined;
  const value = timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError('timeoutMs must be a positive number of milliseconds, or false');
  }
  return value;
}

/**
 * Creates a typed client of the Pet Store API: openapi-fetch over the generated types,
 * with bearer auth, retries that honour `Retry-After` (creates made safe to retry by an
 * `Idempotency-Key`), per-attempt time limits, rate-limit information on every result,
 * an opt-in cache of conditional GETs, deprecation warnings and pagination.
 *
 * @example
 * ```ts
 * const client = createPetstoreClient({ baseUrl: 'https://api.petstore.example/v1', apiKey });
 * const { data, error } = await client.createPet({ name: 'Rex', categoryId: 1 });
 * for await (const pet of client.listAllPets({ status: 'available' })) console.log(pet.name);
 * ```
 */
export function createPetstoreClient(options: PetstoreClientOptions): PetstoreClient {
  assertApiKey(options.apiKey);
  const baseUrl = new URL(options.baseUrl).href.replace(/\/+$/, '');
  const tracker = new RateLimitTracker();
  const clock = options.clock ?? systemClock;
  const userFetch = options.fetch;
  const retryingFetch = createRetryingFetch({
    // Looked up per call so a fetch installed later (polyfill, test double) is used, and
    // called unbound-safe: browsers throw "Illegal invocation" on a detached window.fetch.
    fetch: userFetch ?? ((request) => globalThis.fetch(request)),
    retry: options.retry === false ? undefined : resolveRetryOptions(options.retry),
    timeoutMs: resolveTimeout(options.timeoutMs),
    throttle: options.throttle ? tracker : undefined,
    tracker,
    clock,
    sleep: options.sleep ?? systemSleep,
    random: options.random ?? systemRandom,
  });
  const context: ResultContext = { now: () => clock.now(), revalidated: new WeakSet() };
  const store = options.cache === true ? new ConditionalCache() : options.cache || undefined;
  // The cache sits above the retries: a retry re-sends the same conditional request.
  const fetch = store
    ? createCachingFetch({
        fetch: retryingFetch,
        store,
        apiKey: options.apiKey,
        revalidated: context.revalidated,
      })
    : retryingFetch;

  const raw = createClient<paths>({ baseUrl, fetch });
  // onRequest runs in this order, onResponse in reverse: auth first, deprecation last.
  raw.use(
    bearerAuth(options.apiKey),
    ...(options.traceContext ? [traceContextHeaders(options.traceContext)] : []),
    deprecationWarnings(options.onDeprecation ?? defaultOnDeprecation),
  );

  return {
    async listPets(query, callOptions) {
      const result = await withCallSignal(callOptions?.signal, (signal) =>
        raw.GET('/pets', { params: { query: query ?? {} }, ...signal }),
      );
      return toResult(result, context);
    },
    async createPet(pet, callOptions) {
      const idempotencyKey = callOptions?.idempotencyKey ?? newIdempotencyKey();
      const result = await withCallSignal(callOptions?.signal, (signal) =>
        raw.POST('/pets', {
          body: pet,
          params: { header: { 'Idempotency-Key': idempotencyKeyField(idempotencyKey) } },
          ...signal,
        }),
      );
      return toCreateResult(result, context, idempotencyKey);
    },
    async getPet(petId, callOptions) {
      const result = await withCallSignal(callOptions?.signal, (signal) =>
        raw.GET('/pets/{petId}', { params: { path: { petId } }, ...signal }),
      );
      return toResult(result, context);
    },
    listAllPets(filter, callOptions) {
      return listAllPets(raw, baseUrl, filter, callOptions?.signal, (response) =>
        parseRateLimit(response.headers, clock.now()),
      );
    },
    get rateLimit() {
      return tracker.last;
    },
    raw,
  };
}
