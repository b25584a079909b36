import type { NewPet, Pet, PetStatus } from '@petstore/types';

/**
 * The storage seam. Two adapters implement it (SQLite, the embedded default, and
 * PostgreSQL); both pass one contract suite. The mock server uses SQLite `:memory:`.
 * Every method is async so the synchronous SQLite driver and the networked PostgreSQL
 * driver share one shape.
 */
export interface Storage {
  readonly pets: PetRepository;
  readonly keys: ApiKeyRepository;
  /** Resolves when the database answers; rejects otherwise (used by /healthz). */
  ping(): Promise<void>;
  /** Closes connections; pending writes are flushed first. */
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

/** The plans of the specification (section 8). */
export type Plan = 'free' | 'pro' | 'business' | 'enterprise';

/** An API key as stored: never the raw key, only its SHA-256 hash. */
export interface ApiKeyRecord {
  id: number;
  name: string | null;
  plan: Plan;
  perMinute: number;
  perDay: number;
  /** The first characters of the raw key (e.g. `psk_AbC1`), to recognise it in listings. */
  displayPrefix: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601, or null while the key is active. */
  revokedAt: string | null;
}

export interface NewApiKey {
  /** Hex SHA-256 of the raw key. */
  hash: string;
  displayPrefix: string;
  name: string | null;
  plan: Plan;
  perMinute: number;
  perDay: number;
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
