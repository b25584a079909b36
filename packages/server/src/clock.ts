/**
 * Where the server reads the time. Injected so tests move time forward instead of sleeping.
 *
 * @example
 * ```ts
 * const clock: Clock = { now: () => Date.parse('2030-12-05T00:00:00Z') };
 * ```
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The real time. */
export const systemClock: Clock = { now: () => Date.now() };
