import type { GetPetPath, ListPetsQuery, NewPet, Pet, paths } from '@petstore/types';
import createClient, { type Client } from 'openapi-fetch';
import type { RateLimitInfo } from './headers/rate-limit.js';
import { assertApiKey, bearerAuth } from './middleware/auth.js';
import {
  defaultOnDeprecation,
  deprecationWarnings,
  type OnDeprecation,
} from './middleware/deprecation.js';
import { type ListAllPetsFilter, listAllPets } from './pagination.js';
import { type PetstoreResult, withRateLimit } from './result.js';
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
   * Proactive throttling: when the last response said `X-RateLimit-Remaining: 0`, hold the
   * next request until `X-RateLimit-Reset` instead of collecting a 429 (default false).
   */
  throttle?: boolean;
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

/** The typed Pet Store client returned by `createPetstoreClient`. */
export interface PetstoreClient {
  /** `GET /pets`: one page of pets, filtered by `status`, at most `limit` (1–100, default 20). */
  listPets(query?: ListPetsQuery, options?: CallOptions): Promise<PetstoreResult<Pet[]>>;
  /** `POST /pets`: adds a pet; the result carries its assigned `id`. */
  createPet(pet: NewPet, options?: CallOptions): Promise<PetstoreResult<Pet>>;
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

function signalOption(options: CallOptions | undefined): { signal?: AbortSignal } {
  return options?.signal ? { signal: options.signal } : {};
}

/**
 * Creates a typed client of the Pet Store API: openapi-fetch over the generated types,
 * with bearer auth, retries that honour `Retry-After`, per-attempt time limits, rate-limit
 * information on every result, deprecation warnings and pagination.
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
  const userFetch = options.fetch;
  const fetch = createRetryingFetch({
    // Looked up per call so a fetch installed later (polyfill, test double) is used, and
    // called unbound-safe: browsers throw "Illegal invocation" on a detached window.fetch.
    fetch: userFetch ?? ((request) => globalThis.fetch(request)),
    retry: options.retry === false ? undefined : resolveRetryOptions(options.retry),
    timeoutMs: resolveTimeout(options.timeoutMs),
    throttle: options.throttle ? tracker : undefined,
    tracker,
    clock: options.clock ?? systemClock,
    sleep: options.sleep ?? systemSleep,
    random: options.random ?? systemRandom,
  });

  const raw = createClient<paths>({ baseUrl, fetch });
  // onRequest runs in this order, onResponse in reverse: auth first, deprecation last.
  raw.use(
    bearerAuth(options.apiKey),
    deprecationWarnings(options.onDeprecation ?? defaultOnDeprecation),
  );

  return {
    async listPets(query, callOptions) {
      const result = await raw.GET('/pets', {
        params: { query: query ?? {} },
        ...signalOption(callOptions),
      });
      return withRateLimit(result);
    },
    async createPet(pet, callOptions) {
      const result = await raw.POST('/pets', { body: pet, ...signalOption(callOptions) });
      return withRateLimit(result);
    },
    async getPet(petId, callOptions) {
      const result = await raw.GET('/pets/{petId}', {
        params: { path: { petId } },
        ...signalOption(callOptions),
      });
      return withRateLimit(result);
    },
    listAllPets(filter, callOptions) {
      return listAllPets(raw, baseUrl, filter, signalOption(callOptions));
    },
    get rateLimit() {
      return tracker.last;
    },
    raw,
  };
}
