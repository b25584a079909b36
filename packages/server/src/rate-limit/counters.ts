import type { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Subject } from '../domain.js';
import { DAY_SECONDS, MINUTE_SECONDS } from './fixed-windows.js';

/**
 * A counter's answer: at once (in-process counters) or later (a store's). Callers that only
 * `await` it need not care; the rate limiter decides synchronously when every count it needs
 * came at once, and spares the request a promise per count.
 */
export type Counted<T> = T | Promise<T>;

/** Whether a counter's answer is still to come. */
export const isPending = <T>(value: Counted<T>): value is Promise<T> => value instanceof Promise;

/** What a counter says of a key: its count. */
export interface CounterValue {
  consumedPoints: number;
}

/**
 * An atomic counter with expiry: it counts, we decide. In Redis a rate-limiter-flexible
 * limiter (whose own `points` is never reached, as quotas differ per key), in memory a
 * `MemoryCounter`. Expiry only garbage-collects counters of past windows, because the window
 * is part of each key.
 */
export interface Counter {
  consume(key: string, points?: number): Counted<CounterValue>;
  reward(key: string, points?: number): Counted<CounterValue>;
  get(key: string): Counted<CounterValue | null>;
  set(key: string, points: number, durationSeconds: number): Counted<CounterValue>;
}

/**
 * Wraps one of a backend's counters (by its name in `Counters`), e.g. to trace its calls;
 * built once at start-up.
 */
export type CounterWrapper = (name: keyof Counters, counter: Counter) => Counter;

/** The counters a backend provides, one limiter each. */
export interface Counters {
  /** Requests per subject per clock minute. */
  minute: Counter;
  /** Requests per subject per UTC day. */
  day: Counter;
  /** `rate_limited` answers per key per clock minute (the ban trigger). */
  strikes: Counter;
  /** Per banned key: the end of its ban, in Unix milliseconds (stored as the "points"). */
  bans: Counter;
}

/** What every limiter of the package takes: key prefix, points, duration. */
export type CounterOptions = ConstructorParameters<typeof RateLimiterMemory>[0];

/** The default prefix of every counter's key in the store. */
export const defaultKeyPrefix = 'petstore:rl';

/**
 * The options of each counter, the same for both backends: its key prefix and how long
 * the store keeps it (seconds; the window's length, so a counter outlives its window).
 */
export function counterOptions(keyPrefix: string): Record<keyof Counters, CounterOptions> {
  const counter = (name: string, duration: number): CounterOptions => ({
    keyPrefix: `${keyPrefix}:${name}`,
    points: Number.MAX_SAFE_INTEGER,
    duration,
  });
  return {
    minute: counter('minute', MINUTE_SECONDS),
    day: counter('day', DAY_SECONDS),
    strikes: counter('strikes', MINUTE_SECONDS),
    // Each ban is stored with its own duration (`set(key, until, seconds)`).
    bans: counter('bans', 0),
  };
}

/**
 * The part of a counter's key that names the subject: `key:<id>` or `ip:<address>`. Built
 * here only; what a subject is, is the `Subject` value. The one reader of the prefix is
 * `bySubjectKind` below, which the counters' interface (keys only, no subject) leaves no other
 * way to tell addresses from API keys.
 */
export function subjectKey(subject: Subject): string {
  return subject.kind === 'key' ? `key:${subject.keyId}` : `${addressPrefix}${subject.address}`;
}

const addressPrefix = 'ip:';

/**
 * One counter over two: a counter key built from an address subject goes to `addresses`, any
 * other to `keys`. The in-memory backend bounds each side separately.
 */
export function bySubjectKind(keys: Counter, addresses: Counter): Counter {
  const pick = (key: string) => (key.startsWith(addressPrefix) ? addresses : keys);
  return {
    consume: (key, points) => pick(key).consume(key, points),
    reward: (key, points) => pick(key).reward(key, points),
    get: (key) => pick(key).get(key),
    set: (key, points, durationSeconds) => pick(key).set(key, points, durationSeconds),
  };
}
