import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Clock } from '../clock.js';
import { counterOptions, defaultKeyPrefix } from './counters.js';
import { type BanPolicy, defaultBanPolicy, type RateLimiter } from './limiter.js';
import { createWindowedLimiter } from './windowed-limiter.js';

export interface MemoryRateLimiterOptions {
  clock: Clock;
  /** Defaults to `defaultBanPolicy` (20 answers of 429 within a minute ban a key for 900 s). */
  ban?: BanPolicy;
}

/**
 * The in-process backend, the default for a single instance: counts live in this
 * process's memory (rate-limiter-flexible's `RateLimiterMemory`), so they are exact under
 * any concurrency within it (Node runs each increment to completion) but not shared with
 * other instances. Nothing to close.
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
}: MemoryRateLimiterOptions): RateLimiter {
  const options = counterOptions(defaultKeyPrefix);
  return createWindowedLimiter(
    {
      minute: new RateLimiterMemory(options.minute),
      day: new RateLimiterMemory(options.day),
      strikes: new RateLimiterMemory(options.strikes),
      bans: new RateLimiterMemory(options.bans),
    },
    { clock, ban, close: async () => {}, health: () => ({ backend: 'memory' }) },
  );
}
