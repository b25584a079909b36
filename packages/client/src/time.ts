/**
 * Where the client reads the time, waits and draws random numbers. Injected so that
 * backoff and throttling are tested deterministically, with no real waiting.
 *
 * @example
 * ```ts
 * let now = Date.parse('2030-01-01T00:00:00Z');
 * const clock: Clock = { now: () => now };
 * const sleep: Sleep = async (ms) => { now += ms; };
 * ```
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/**
 * Resolves after `ms` milliseconds; rejects with `signal.reason` as soon as `signal`
 * aborts (also when it is already aborted).
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A number in [0, 1), like `Math.random`. */
export type Random = () => number;

/** The real time. */
export const systemClock: Clock = { now: () => Date.now() };

/** The real timer (`setTimeout`), abortable. Works in Node and browsers. */
export const systemSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `Math.random`. */
export const systemRandom: Random = () => Math.random();
