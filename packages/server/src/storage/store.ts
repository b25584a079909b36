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
  /**
   * The keys' and the pets' revisions, read together at the moment of the call (synchronous,
   * and cheap: SQLite reads its change counter once for both). A request reads them once,
   * before it reads anything else from the store: what it reads afterwards is at least that
   * recent, so what was read at a revision may be served again while the revision is the same.
   */
  revisions(): Revisions;
  /** Resolves when the database answers; rejects otherwise (readiness). */
  ping(): Promise<void>;
  /** Closes connections; pending writes are flushed first. Idempotent. */
  close(): Promise<void>;
}

/** Numbers that change whenever what they cover may have changed, by any process. */
export interface Revisions {
  /**
   * Moves whenever any key may have changed (created, revoked, rotated); undefined when that
   * cannot be known right now. A cache of key lookups keyed on it forgets a revocation at once.
   */
  keys: number | undefined;
  /**
   * Moves whenever any pet may have changed; undefined when the store cannot tell that cheaply
   * (then nothing read is served again).
   */
  pets: number | undefined;
}

export interface ListPetsQuery {
  /** Maximum number of pets to return. Ask for one more than a page to learn if more exist. */
  limit: number;
  /** Keep only pets with this status. */
  status?: PetStatus | undefined;
  /** Keep only pets whose id is greater than this (keyset pagination). */
  afterId?: number | undefined;
}

/** A create made safe to retry by an `Idempotency-Key`. */
export interface IdempotentCreate {
  /** The API key the `Idempotency-Key` belongs to (keys are scoped to it). */
  apiKeyId: number;
  /** The `Idempotency-Key`, unquoted. */
  key: string;
  /** What identifies the request body (a hash of its canonical JSON). */
  fingerprint: string;
  /** The request's time (Unix ms): records that expired before it are gone. */
  now: number;
  /** Until when (Unix ms) the key is kept once the pet is created. */
  expiresAt: number;
}

/** What became of an idempotent create. */
export type IdempotentOutcome =
  /** No live record of the key: the pet was created and the key recorded, atomically. */
  | { kind: 'created'; pet: Pet }
  /** The key was used before with the same body: that create's pet; nothing was created. */
  | { kind: 'replayed'; pet: Pet }
  /** The key was used before with another body: nothing was created. */
  | { kind: 'reused' }
  /** Another request with the key is being processed right now (another instance). */
  | { kind: 'in_flight' };

export interface PetRepository {
  /** Stores a pet and returns it with its assigned id; an omitted status stays absent. */
  create(pet: NewPet): Promise<Pet>;
  /**
   * Creates a pet unless the `Idempotency-Key` already did: checking the key, creating the pet
   * and recording the key (with the body's fingerprint and the created pet) happen in one
   * transaction, so a pet is never created twice for one key and never without its record.
   */
  createIdempotent(pet: NewPet, request: IdempotentCreate): Promise<IdempotentOutcome>;
  /** Forgets the idempotency records that expired before `now` (Unix ms); how many. */
  purgeExpiredIdempotencyKeys(now: number): Promise<number>;
  /**
   * The pet, or undefined. Like `list`, its result may be the very object handed to other
   * callers that asked the same (PostgreSQL shares reads): callers must not change it, and the
   * routes build one answer per result (`BuiltFromResult`).
   */
  get(id: number): Promise<Pet | undefined>;
  /**
   * Pets ordered by id ascending. The array may be shared with other callers, but only with
   * those that asked the same query (the same limit, status and `afterId`), and must not be
   * changed.
   */
  list(query: ListPetsQuery): Promise<Pet[]>;
}

/** The new key's own parts; everything else (plan, quota, name) is copied from the old key. */
export interface ReplacementKey {
  /** Hex SHA-256 of the new raw key. */
  hash: string;
  displayPrefix: string;
}

/** What became of a rotation. */
export type KeyRotation =
  /** The new key is stored; the old one expires at `replaced.expiresAt`, or is revoked (grace 0). */
  | { kind: 'rotated'; record: ApiKeyRecord; replaced: ApiKeyRecord }
  /** No key has this id. */
  | { kind: 'unknown' }
  /** The key is revoked. */
  | { kind: 'revoked'; key: ApiKeyRecord }
  /** The key was rotated already (its grace period runs until, or ended at, `key.expiresAt`). */
  | { kind: 'replaced'; key: ApiKeyRecord };

/**
 * API keys. A key is active while it is not revoked and has not expired. Revoking takes effect
 * at once, whatever any clock says; an expiry (the end of a rotated key's grace period) is an
 * instant compared with the adapter's clock. Every "active" below means so at the clock's time.
 */
export interface ApiKeyRepository {
  create(key: NewApiKey): Promise<ApiKeyRecord>;
  /** The key with this hash if it is active. */
  findActiveByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, revoked and expired ones included, by id. */
  list(): Promise<ApiKeyRecord[]>;
  /**
   * Revokes the key at the clock's time (a key in its grace period included: its grace ends
   * now); false when no active key has this id.
   */
  revoke(id: number): Promise<boolean>;
  /**
   * Replaces a key that was never revoked nor rotated, in one transaction: stores
   * `replacement` with the old key's plan, quota and name (and `replacesId` = `id`), and lets
   * the old key expire at the clock's time plus `graceMs` — or, with 0, revokes it. A key is
   * rotated at most once, so it has at most one replacement.
   */
  rotate(id: number, replacement: ReplacementKey, graceMs: number): Promise<KeyRotation>;
  /** How many keys are active. */
  countActive(): Promise<number>;
}
