import type { Clock } from '../clock.js';
import { bySubjectKind, type Counter, type Counters } from './counters.js';
import { DAY_SECONDS, MINUTE_SECONDS } from './fixed-windows.js';
import { type BanPolicy, defaultBanPolicy, type RateLimiter } from './limiter.js';
import { MemoryCounter } from './memory-counter.js';
import { createWindowedLimiter } from './windowed-limiter.js';

export interface MemoryRateLimiterOptions {
  clock: Clock;
  /** Defaults to `defaultBanPolicy` (20 answers of 429 within a minute ban a key for 900 s). */
  ban?: BanPolicy;
  /**
   * The most API keys, and separately the most client addresses, counted per window (default
   * 100,000 each). Beyond it the least recently used counts are forgotten (see `MemoryCounter`).
   */
  maxSubjects?: number;
}

/** The default of `maxSubjects`. */
export const DEFAULT_MAX_SUBJECTS = 100_000;

/**
 * The in-process backend, the default for a single instance: counts live in this
 * process's memory (`MemoryCounter`s, API keys and client addresses apart), so they are exact
 * under any concurrency within it (Node runs each increment to completion) but not shared with
 * other instances. Its memory is bounded: at most `maxSubjects` keys and as many addresses per
 * window, whatever a flood of new addresses does. Nothing to close.
 *
 * @example
 * ```ts
 * const limiter = createMemoryRateLimiter({ clock: systemClock });
 * const decision = await limiter.consume({ kind: 'key', keyId: 7 }, { perMinute: 60, perDay: 1000 });
 * ```
 */
export function createMemoryRateLimiter({
  clock,
  ban = defaultBanPolicy,
  maxSubjects = DEFAULT_MAX_SUBJECTS,
}: MemoryRateLimiterOptions): RateLimiter {
  return createWindowedLimiter(memoryCounters(maxSubjects), {
    clock,
    ban,
    close: async () => {},
    health: () => ({ backend: 'memory' }),
  });
}

/**
 * The in-process counters, bounded: at most `maxSubjects` API keys and as many client addresses
 * per window. The in-memory backend counts with them, and the Redis backend while Redis is away.
 */
export function memoryCounters(maxSubjects: number): Counters {
  const counter = (durationSeconds: number): Counter =>
    bySubjectKind(
      new MemoryCounter({ durationSeconds, maxEntries: maxSubjects }),
      new MemoryCounter({ durationSeconds, maxEntries: maxSubjects }),
    );
  return {
    minute: counter(MINUTE_SECONDS),
    day: counter(DAY_SECONDS),
    // Only keys strike and get banned.
    strikes: new MemoryCounter({ durationSeconds: MINUTE_SECONDS, maxEntries: maxSubjects }),
    bans: new MemoryCounter({ durationSeconds: 0, maxEntries: maxSubjects }),
  };
}
