import type { NewPet, Pet, PetStatus } from '@petstore/types';
import type { ApiKeyRecord, NewApiKey } from '../domain.js';

/**
 * The storage seam. Two adapters implement it in one shape (SQLite, the embedded default, and
 * PostgreSQL); both pass one contract suite. The mock server uses SQLite `:memory:`.
 * Every method is async so the synchronous SQLite driver and the networked PostgreSQL
 * driver share one shape. A method fails with `StoreUnavailableError` when the database cannot
 * be reached or written (the API answers 503), with any other error for a bug.
 */
export interface Storage {
  readonly pets: PetRepository;
  readonly keys: ApiKeyRepository;
  /** Resolves when the database answers; rejects otherwise (readiness). */
  ping(): Promise<void>;
  /** Closes connections; pending writes are flushed first. Idempotent. */
  close(): Promise<void>;
}

export interface ListPetsQuery {
  /** Maximum number of pets to return. Ask for one more than a page to learn if more exist. */
  limit: number;
  /** Keep only pets with this status. */
  status?: PetStatus | undefined;
  /** Keep only pets whose id is greater than this (keyset pagination). */
  afterId?: number | undefined;
}

export interface PetRepository {
  /** Stores a pet and returns it with its assigned id; an omitted status stays absent. */
  create(pet: NewPet): Promise<Pet>;
  get(id: number): Promise<Pet | undefined>;
  /** Pets ordered by id ascending. */
  list(query: ListPetsQuery): Promise<Pet[]>;
}

export interface ApiKeyRepository {
  create(key: NewApiKey): Promise<ApiKeyRecord>;
  /** The active (not revoked) key with this hash. */
  findActiveByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, revoked ones included, by id. */
  list(): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when no active key has this id. */
  revoke(id: number): Promise<boolean>;
  /** How many keys are active. */
  countActive(): Promise<number>;
}
