import type { Counter, CounterValue } from './counters.js';

interface Entry {
  points: number;
  /** Unix ms (real time) after which the entry is only garbage. */
  expiresAt: number;
}

export interface MemoryCounterOptions {
  /** How long an entry is kept after it is created, in seconds (0: until evicted). */
  durationSeconds: number;
  /** The most entries kept; past it, the oldest entry is dropped. */
  maxEntries: number;
  /** Real time, for expiry only (the windows themselves come from the injected clock). */
  now?: () => number;
}

/**
 * A counter with expiry in this process's memory, bounded: one `Map` in insertion order, so the
 * oldest entry is always first. Every new entry first drops up to two expired ones from the front
 * (entries of one counter share a duration, so they expire in insertion order), and, when the map
 * is full, the oldest one. Memory therefore follows the live entries and never exceeds
 * `maxEntries`, with no timer per entry and no sweep.
 *
 * Dropping a live entry forgets a count: its subject starts that window again from zero. That
 * only happens when more than `maxEntries` subjects were seen within one duration, which is why
 * API keys and client addresses get separate counters (`createMemoryCounters`): a flood of new
 * addresses can only make the limiter forget addresses, never keys.
 */
export class MemoryCounter implements Counter {
  readonly #entries = new Map<string, Entry>();
  readonly #durationMs: number;
  readonly #max: number;
  readonly #now: () => number;

  constructor({ durationSeconds, maxEntries, now = Date.now }: MemoryCounterOptions) {
    this.#durationMs = durationSeconds * 1000;
    this.#max = maxEntries;
    this.#now = now;
  }

  /** How many entries are held (live or not yet dropped). */
  get size(): number {
    return this.#entries.size;
  }

  async consume(key: string, points = 1): Promise<CounterValue> {
    return { consumedPoints: this.#add(key, points) };
  }

  async reward(key: string, points = 1): Promise<CounterValue> {
    return { consumedPoints: this.#add(key, -points) };
  }

  async get(key: string): Promise<CounterValue | null> {
    const entry = this.#live(key, this.#now());
    return entry === undefined ? null : { consumedPoints: entry.points };
  }

  async set(key: string, points: number, durationSeconds: number): Promise<CounterValue> {
    const now = this.#now();
    this.#entries.delete(key);
    this.#insert(key, { points, expiresAt: expiry(now, durationSeconds * 1000) }, now);
    return { consumedPoints: points };
  }

  #add(key: string, points: number): number {
    const now = this.#now();
    const entry = this.#live(key, now);
    if (entry !== undefined) {
      entry.points += points;
      return entry.points;
    }
    this.#insert(key, { points, expiresAt: expiry(now, this.#durationMs) }, now);
    return points;
  }

  /** The entry of `key` unless it has expired (then it is dropped). */
  #live(key: string, now: number): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.expiresAt > now) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  #insert(key: string, entry: Entry, now: number): void {
    for (let dropped = 0; dropped < 2; dropped++) {
      const oldest = this.#entries.entries().next();
      if (oldest.done === true || oldest.value[1].expiresAt > now) break;
      this.#entries.delete(oldest.value[0]);
    }
    if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, entry);
  }
}

const expiry = (now: number, durationMs: number) =>
  durationMs > 0 ? now + durationMs : Number.POSITIVE_INFINITY;
