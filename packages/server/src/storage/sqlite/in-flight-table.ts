/**
 * What is in flight on a hot path (the SQLite writes waiting for their commit), each under a
 * number given when it is added, until it is taken back.
 *
 * A plain object used as a dictionary, not a `Map` or a `Set`, on purpose. V8 grows, shrinks
 * and compacts a Map's or Set's table by copying it into a new one, and the old table keeps its
 * entries and a link to its successor (for iterators still walking it: `OrderedHashTable::Rehash`
 * in V8). Under constant churn, once one table is in the old generation (a full collection can
 * move a live young table there), that table, dead or not, keeps its successor alive through
 * every young-generation collection until the next full one, the successor keeps the next, and
 * so on, with every entry they hold. With the server's responses and writes in a Set and a Map,
 * creates fell into that state some seconds into a load and stayed: 110–130 µs per create
 * instead of 80–90, p99 up to 31 ms instead of 4–5 (docs/benchmarks.md, *Changes that
 * mattered*). An object's dictionary has no such link. Measured on Node.js 20.20.2 (V8 11.3),
 * and again on Node.js 24.21.0 (V8 13.6), where it still pays: 163, 235 and 168 µs of CPU per
 * create against 176, 253 and 189 with a Map and a Set, alternating in one run.
 */
export class InFlightTable<T> {
  #entries: Record<number, T> = Object.create(null) as Record<number, T>;
  #size = 0;
  #nextId = 1;

  /** How many are in flight. */
  get size(): number {
    return this.#size;
  }

  /** Adds `value`; returns its number. */
  add(value: T): number {
    const id = this.#nextId++;
    this.#entries[id] = value;
    this.#size += 1;
    return id;
  }

  /** Removes and returns the value under `id` (undefined if there is none). */
  take(id: number): T | undefined {
    const value = this.#entries[id];
    if (value !== undefined) {
      delete this.#entries[id];
      this.#size -= 1;
    }
    return value;
  }

  /** Removes and returns every value in flight, oldest first. */
  takeAll(): T[] {
    const values = Object.values(this.#entries);
    this.#entries = Object.create(null) as Record<number, T>;
    this.#size = 0;
    return values;
  }
}
