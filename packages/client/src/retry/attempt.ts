import { AbortedError, NetworkError, TimeoutError } from '../errors.js';
import type { Sleep } from '../time.js';

/** The shape of `fetch` the client calls (what openapi-fetch passes: one Request). */
export type FetchLike = (request: Request) => Promise<Response>;

export interface AttemptOptions {
  fetch: FetchLike;
  sleep: Sleep;
  /** Per-attempt time limit for headers and body together; undefined for none. */
  timeoutMs: number | undefined;
  /** `GET /v1/pets`: names the request in error messages (never headers, so never the key). */
  what: string;
}

/** A promise that rejects with `signal.reason` when `signal` aborts, and a way to stop listening. */
function rejectOnAbort(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<never>((_, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    dispose = () => signal.removeEventListener('abort', onAbort);
  });
  promise.catch(() => {}); // observed through Promise.race; never an unhandled rejection
  return { promise, dispose };
}

/**
 * Sends `request` once. The time limit covers the response body too (it is read before
 * returning), so a server that stalls mid-body cannot hang the caller. The race against
 * the signal also bounds an injected `fetch` that ignores signals.
 *
 * Throws `AbortedError` when the caller's signal aborts, `TimeoutError` when the limit
 * passes, `NetworkError` for any other failure; the API key appears in none of them.
 */
export async function sendAttempt(request: Request, options: AttemptOptions): Promise<Response> {
  const caller = request.signal;
  const timeout = new AbortController();
  const stopTimer = new AbortController();
  const { timeoutMs, what } = options;
  const signal = timeoutMs === undefined ? caller : AbortSignal.any([caller, timeout.signal]);
  if (timeoutMs !== undefined) {
    options.sleep(timeoutMs, stopTimer.signal).then(
      () => timeout.abort(new TimeoutError(what, timeoutMs)),
      () => {}, // the attempt finished first and stopped the timer
    );
  }
  const abort = rejectOnAbort(signal);
  try {
    const response = await Promise.race([
      options.fetch(new Request(request, { signal })),
      abort.promise,
    ]);
    // Read a copy to the end inside the time limit; the original keeps its url and
    // headers and gets the same bytes (Response.clone tees the body).
    await Promise.race([response.clone().arrayBuffer(), abort.promise]);
    return response;
  } catch (error) {
    if (caller.aborted) throw new AbortedError(what, caller.reason);
    if (timeout.signal.aborted && timeoutMs !== undefined) throw new TimeoutError(what, timeoutMs);
    throw new NetworkError(what, error, request.url);
  } finally {
    abort.dispose();
    stopTimer.abort();
  }
}
