import QuickLRU from 'quick-lru';

/** A JSON answer as the routes send it: the body, its text, its ETag, and a page's `Link`. */
export interface Representation<T> {
  body: T;
  text: string;
  etag: string;
  link?: string | undefined;
}

/**
 * What the routes read from the store and serialised, kept while the store's pet revision
 * (`Storage.revisions`, as the request read it) stays the same: a page or a pet asked again is
 * answered without the query, the JSON serialisation or the ETag's hash. Any create, by this process or another,
 * moves the revision, and the first request to see the new revision empties the cache, so an
 * answer is never older than the last write its caller could know of. A store that cannot tell
 * its revision cheaply (PostgreSQL) answers undefined, and nothing is kept.
 *
 * At most `maxEntries` answers (1,000 by default: 1,000 pages of 100 pets are about 8 MB of
 * JSON), the least recently used going first: callers choose the keys (any cursor), so the
 * bound, not the callers, decides the memory.
 */
export class RepresentationCache<T> {
  readonly #entries: QuickLRU<string, Representation<T>>;
  #revision: number | undefined;

  constructor({ maxEntries = 1_000 }: { maxEntries?: number } = {}) {
    // quick-lru keeps up to twice its maxSize (a current and a previous generation).
    this.#entries = new QuickLRU({ maxSize: Math.max(1, Math.ceil(maxEntries / 2)) });
  }

  /** The answer stored under `key` at `revision`; a new revision forgets every answer. */
  get(key: string, revision: number | undefined): Representation<T> | undefined {
    if (revision === undefined) return undefined;
    if (revision !== this.#revision) {
      this.#entries.clear();
      this.#revision = revision;
      return undefined;
    }
    return this.#entries.get(key);
  }

  /**
   * Keeps an answer read from the store at `revision` (read before the store was). Nothing is
   * kept if another request has seen a newer revision meanwhile.
   */
  set(key: string, revision: number | undefined, value: Representation<T>): void {
    if (revision === undefined || revision !== this.#revision) return;
    this.#entries.set(key, value);
  }
}

/**
 * Answers built once per store result. A store may hand several requests the very same result
 * (PostgreSQL's shared reads give every request that joined a read the same rows): the answer
 * built from it (the servable pets, their JSON, the ETag's hash) is then built once, by the
 * first, and shared as the rows were. No answer is older than the rows it was built from, and
 * a result that is no longer referenced takes its answer with it (a `WeakMap`). The store
 * shares a result only between identical queries (`PetRepository.list`), so the first
 * request's page size and status are every sharer's. A build that throws keeps nothing (an
 * unservable pet is refused to each request). A store that never shares a result (SQLite
 * reads afresh for each request) builds each answer once, as before.
 */
export class BuiltFromResult<R extends object, V> {
  readonly #built = new WeakMap<R, V>();

  /** The answer built from `result`, building it with `build` unless it was already. */
  of(result: R, build: () => V): V {
    let value = this.#built.get(result);
    if (value === undefined) {
      value = build();
      this.#built.set(result, value);
    }
    return value;
  }
}
