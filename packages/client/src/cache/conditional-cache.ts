import QuickLRU from 'quick-lru';
import type { FetchLike } from '../retry/attempt.js';

/** What the cache keeps of a `200` to a GET: its validator, its body and its headers. */
export interface CachedRepresentation {
  /** The `ETag` the server sent, sent back in `If-None-Match`. */
  etag: string;
  /** The body, as received. */
  body: ArrayBuffer;
  /** The response's headers (updated from each `304`, RFC 9111 §4.3.4). */
  headers: Array<[string, string]>;
}

/**
 * Where the client keeps representations between requests. `ConditionalCache` is the one it
 * ships; any object with these three methods will do (e.g. one shared with your own metrics).
 * Keys name the API key (by its SHA-256, never in clear where the platform can hash) and the
 * full request URL.
 */
export interface ConditionalCacheStore {
  get(key: string): CachedRepresentation | undefined;
  set(key: string, value: CachedRepresentation): void;
  delete(key: string): void;
}

export interface ConditionalCacheOptions {
  /**
   * How many representations to keep (default 100): the least recently used go first. The
   * store (quick-lru) may briefly hold up to twice as many before it drops the old half.
   */
  maxEntries?: number;
}

/**
 * A bounded, least-recently-used store of the last `ETag` and body of each `getPet` and each
 * `listPets` page, per API key and URL. Pass `cache: true` to `createPetstoreClient` for one
 * of its own, or one instance to several clients to share it.
 *
 * @example
 * ```ts
 * const cache = new ConditionalCache({ maxEntries: 500 });
 * const client = createPetstoreClient({ baseUrl, apiKey, cache });
 * ```
 */
export class ConditionalCache implements ConditionalCacheStore {
  readonly #entries: QuickLRU<string, CachedRepresentation>;

  constructor(options: ConditionalCacheOptions = {}) {
    const maxEntries = options.maxEntries ?? 100;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError('cache.maxEntries must be an integer of at least 1');
    }
    this.#entries = new QuickLRU({ maxSize: maxEntries });
  }

  get(key: string): CachedRepresentation | undefined {
    return this.#entries.get(key);
  }

  set(key: string, value: CachedRepresentation): void {
    this.#entries.set(key, value);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** How many representations are held now. */
  get size(): number {
    return this.#entries.size;
  }
}

// Headers that describe the bytes of one message, not the representation: a 304's own
// (no body) must not replace the stored ones (RFC 9111 §3.2). The stored body is decoded, so
// its original Content-Encoding and Content-Length are dropped too.
const MESSAGE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

function storable(headers: Headers): Array<[string, string]> {
  return [...headers].filter(([name]) => !MESSAGE_HEADERS.has(name));
}

/**
 * The partition of an API key in the cache: the hex SHA-256 of the key where the platform has
 * Web Crypto (Node, and browser pages in a secure context), so the store never holds the key;
 * elsewhere the key itself, which the client holds in memory anyway.
 */
async function partitionOf(apiKey: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle as SubtleCrypto | undefined;
  if (!subtle) return apiKey;
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(apiKey));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface CachingFetchOptions {
  fetch: FetchLike;
  store: ConditionalCacheStore;
  apiKey: string;
  /** Records each response built from the cache after a `304`, so results can say so. */
  revalidated: WeakSet<Response>;
}

/**
 * Conditional GETs (RFC 9110 §13.1.2) as a layer of the client's `fetch`, above the retries:
 * a GET whose URL has a stored representation is sent with `If-None-Match: <its ETag>`; a
 * `304` is turned into the stored `200` with the `304`'s fresh headers (rate limits, request
 * id) laid over the stored ones, and recorded in `revalidated`; a `200` with an `ETag`
 * replaces the stored one. The server is asked every time: nothing is served without its `304`.
 * A request that already carries `If-None-Match` is passed through untouched.
 */
export function createCachingFetch(options: CachingFetchOptions): FetchLike {
  const { store, revalidated } = options;
  let partition: Promise<string> | undefined;
  return async (request) => {
    if (request.method !== 'GET' || request.headers.has('If-None-Match')) {
      return options.fetch(request);
    }
    partition ??= partitionOf(options.apiKey);
    const key = `${await partition} ${request.url}`;
    const stored = store.get(key);
    let sent = request;
    if (stored) {
      sent = new Request(request);
      sent.headers.set('If-None-Match', stored.etag);
    }
    const response = await options.fetch(sent);

    if (response.status === 304 && stored) {
      const headers = new Headers(stored.headers);
      for (const [name, value] of response.headers) {
        if (!MESSAGE_HEADERS.has(name)) headers.set(name, value);
      }
      store.set(key, { ...stored, headers: [...headers] });
      const fromCache = new Response(stored.body.slice(0), { status: 200, headers });
      revalidated.add(fromCache);
      return fromCache;
    }
    const etag = response.headers.get('ETag');
    const noStore = /(^|,)\s*no-store\s*(,|$)/i.test(response.headers.get('Cache-Control') ?? '');
    if (response.status === 200 && etag && !noStore) {
      const body = await response.clone().arrayBuffer();
      store.set(key, { etag, body, headers: storable(response.headers) });
    } else if (response.status === 200 || response.status === 404) {
      store.delete(key);
    }
    return response;
  };
}
