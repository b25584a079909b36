import { performance } from 'node:perf_hooks';
import {
  type Storage,
  type StoreCallWrapper,
  StoreUnavailableError,
  wrapServedCalls,
} from '../storage/index.js';
import type { Metrics } from './metrics.js';

/**
 * The store with the calls of serving timed into `petstore_store_query_duration_seconds`
 * (the calls `wrapServedCalls` lists), labelled with the method (`pets.list`) and the outcome
 * (`ok`, `unavailable`, `error`). A decorator: the adapters know nothing of metrics.
 */
export function instrumentStorage(storage: Storage, { storeDuration }: Metrics): Storage {
  // `then`, not `async`/`await`: one promise per timed call, on the hot path of every create.
  const timed: StoreCallWrapper = <A extends unknown[], R>(
    method: string,
    call: (...args: A) => Promise<R>,
  ) => {
    const ok = storeDuration.labels(method, 'ok');
    return (...args: A): Promise<R> => {
      const start = performance.now();
      let pending: Promise<R>;
      try {
        pending = call(...args);
      } catch (error) {
        pending = Promise.reject(error as Error);
      }
      return pending.then(
        (result) => {
          ok.observe((performance.now() - start) / 1000);
          return result;
        },
        (error: unknown) => {
          const outcome = error instanceof StoreUnavailableError ? 'unavailable' : 'error';
          storeDuration.labels(method, outcome).observe((performance.now() - start) / 1000);
          throw error;
        },
      );
    };
  };
  return wrapServedCalls(storage, timed);
}
