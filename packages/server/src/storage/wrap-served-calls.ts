import type { Storage } from './store.js';

/**
 * Wraps one store call: given the call's name (`pets.list`) and the call, returns what runs
 * in its place. Built once per call at start-up, so a wrapper can prepare what it needs per
 * name (a metric's labels, a span's attributes) outside the request path.
 */
export type StoreCallWrapper = <A extends unknown[], R>(
  name: string,
  call: (...args: A) => Promise<R>,
) => (...args: A) => Promise<R>;

/**
 * The store with each call of serving wrapped by `wrap`: every pet call, the key lookup and
 * `ping` (not `revisions`, counters read once per request with a key, nor the key management
 * of the keys CLI). The one list of the calls that metrics and traces observe; each observer
 * is a wrapper, and the adapters know nothing of them.
 *
 * @example
 * ```ts
 * const observed = wrapServedCalls(storage, (name, call) => (...args) => call(...args));
 * ```
 */
export function wrapServedCalls(storage: Storage, wrap: StoreCallWrapper): Storage {
  const { pets, keys } = storage;
  return {
    ...storage,
    pets: {
      create: wrap('pets.create', pets.create),
      createIdempotent: wrap('pets.createIdempotent', pets.createIdempotent),
      get: wrap('pets.get', pets.get),
      list: wrap('pets.list', pets.list),
      purgeExpiredIdempotencyKeys: wrap(
        'pets.purgeExpiredIdempotencyKeys',
        pets.purgeExpiredIdempotencyKeys,
      ),
    },
    keys: {
      ...keys,
      findActiveByHash: wrap('keys.findActiveByHash', keys.findActiveByHash),
    },
    ping: wrap('ping', storage.ping),
  };
}
