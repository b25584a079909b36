/**
 * The `Idempotency-Key`s this process is processing right now, per API key: a second request
 * with a key already here gets 409 at once, before touching the store. (Across instances on
 * PostgreSQL, the store's advisory lock tells the same.)
 */
export class InFlightKeys {
  readonly #keys = new Set<string>();

  /** Marks the key in flight; false when it already was. */
  enter(apiKeyId: number, key: string): boolean {
    const scoped = `${apiKeyId}:${key}`;
    if (this.#keys.has(scoped)) return false;
    this.#keys.add(scoped);
    return true;
  }

  leave(apiKeyId: number, key: string): void {
    this.#keys.delete(`${apiKeyId}:${key}`);
  }
}
