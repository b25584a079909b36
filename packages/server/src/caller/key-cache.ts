import type { ApiKeyRecord } from '../domain.js';
import { isKeyValidAt } from '../keys/index.js';

interface Entry {
  record: ApiKeyRecord;
  revision: number;
  storedAt: number;
}

export interface KeyCacheOptions {
  /** How long a lookup is trusted at most, even with no change signalled (ms). */
  ttlMs?: number;
  /** How many keys are remembered at most (the oldest go first). */
  maxEntries?: number;
}

/**
 * Active keys this process looked up lately, by raw token, so that most requests cost neither a
 * SHA-256 nor a store round trip. An entry is used only while the store's key revision is the
 * one it was stored under (any change to any key, by any process, moves it: SQLite triggers,
 * PostgreSQL LISTEN/NOTIFY), within `ttlMs`, and while the key is valid at the clock's time (a
 * rotated key's grace period ends on time). Unknown keys are never cached: a key created a
 * moment ago works at once.
 */
export class KeyCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;

  constructor({ ttlMs = 5_000, maxEntries = 10_000 }: KeyCacheOptions = {}) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
  }

  get(token: string, revision: number | undefined, now: number): ApiKeyRecord | undefined {
    const entry = this.#entries.get(token);
    if (entry === undefined) return undefined;
    if (
      revision === undefined ||
      entry.revision !== revision ||
      now - entry.storedAt >= this.#ttlMs ||
      now < entry.storedAt ||
      !isKeyValidAt(entry.record, now)
    ) {
      this.#entries.delete(token);
      return undefined;
    }
    return entry.record;
  }

  set(token: string, record: ApiKeyRecord, revision: number | undefined, now: number): void {
    if (revision === undefined) return;
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(token, { record, revision, storedAt: now });
  }
}
