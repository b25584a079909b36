import QuickLRU from 'quick-lru';
import type { Counter, CounterValue } from './counters.js';

export interface MemoryCounterOptions {
  /** How long an entry is kept after it is created, in seconds (0: until evicted). */
  durationSeconds: number;
  /** How many entries are kept before the least recently used start to go (see below). */
  maxEntries: number;
}

/**
 * A counter with expiry in this process's memory, bounded: a `quick-lru` cache (the one the
 * client's conditional cache uses), which forgets entries when they expire and, past
 * `maxEntries` new entries, the least recently used ones; it never holds more than twice
 * `maxEntries`, keeps no timer per entry and needs no sweep.
 *
 * Forgetting a live entry forgets a count: its subject starts that window again from zero. That
 * only happens when more than `maxEntries` subjects were counted within one window, which is why
 * API keys and client addresses get separate counters (`createMemoryRateLimiter`): a flood of new
 * addresses can only make the limiter forget addresses, never keys.
 */
export class MemoryCounter implements Counter {
  readonly #entries: QuickLRU<string, { points: number }>;

  constructor({ durationSeconds, maxEntries }: MemoryCounterOptions) {
    this.#entries = new QuickLRU({
      maxSize: maxEntries,
      ...(durationSeconds > 0 ? { maxAge: durationSeconds * 1000 } : {}),
    });
  }

  /** How many entries are held (expired ones included until the cache drops them). */
  get size(): number {
    return this.#entries.size;
  }

  // Synchronous: the count is in this process (see `Counted`).
  consume(key: string, points = 1): CounterValue {
    return { consumedPoints: this.#add(key, points) };
  }

  reward(key: string, points = 1): CounterValue {
    return { consumedPoints: this.#add(key, -points) };
  }

  get(key: string): CounterValue | null {
    const entry = this.#entries.get(key);
    return entry === undefined ? null : { consumedPoints: entry.points };
  }

  set(key: string, points: number, durationSeconds: number): CounterValue {
    this.#entries.set(key, { points }, { maxAge: durationSeconds * 1000 });
    return { consumedPoints: points };
  }

  #add(key: string, points: number): number {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      entry.points += points;
      return entry.points;
    }
    this.#entries.set(key, { points });
    return points;
  }
}
