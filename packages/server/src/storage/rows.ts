import type { Pet, PetStatus } from '@petstore/types';
import type { ApiKeyRecord, NewApiKey, Plan } from '../domain.js';

/**
 * The row shapes both adapters read and their one mapping to domain values. The drivers differ
 * only in how they hand columns over: better-sqlite3 gives integers as numbers and timestamps as
 * the ISO text we stored; pg gives `bigint` as strings (int64 exceeds a JS number) and
 * `timestamptz` as Dates. The mapping accepts both, so the adapters share it.
 */
type Integer = number | string;
type Timestamp = string | Date;

export interface PetRow {
  id: Integer;
  name: string;
  category_id: Integer;
  status: PetStatus | null;
}

export interface ApiKeyRow {
  id: Integer;
  name: string | null;
  plan: Plan;
  per_minute: Integer;
  per_day: Integer;
  display_prefix: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  expires_at: Timestamp | null;
  replaces_id: Integer | null;
}

/** The columns of `PetRow`, in SQL. */
export const PET_COLUMNS = 'id, name, category_id, status';
/** The columns of `ApiKeyRow`, in SQL. */
export const KEY_COLUMNS =
  'id, name, plan, per_minute, per_day, display_prefix, created_at, revoked_at, expires_at, replaces_id';

/** The columns a new key is inserted with, in SQL, and their values in that order. */
export const NEW_KEY_COLUMNS = 'hash, display_prefix, name, plan, per_minute, per_day, created_at';
export function newKeyValues(
  key: NewApiKey,
  createdAt: string,
): [string, string, string | null, Plan, number, number, string] {
  return [key.hash, key.displayPrefix, key.name, key.plan, key.perMinute, key.perDay, createdAt];
}

/**
 * An integer column as a JS number, only when exact: a rounded id would silently address
 * another row, so beyond ±(2^53−1) the store fails loudly instead.
 */
export function toSafeInteger(value: Integer, column: string): number {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(number)) {
    throw new RangeError(`${column} ${value} is beyond the safe integer range (±(2^53−1)).`);
  }
  return number;
}

const toIso = (value: Timestamp): string =>
  typeof value === 'string' ? value : value.toISOString();

/**
 * A pet row as a `Pet`. Lenient: it never throws, so one odd row cannot fail a whole page; an
 * integer beyond ±(2^53−1) comes out as an unsafe (rounded) number, which the routes' check
 * against the contract refuses to serve.
 */
export function petFromRow(row: PetRow): Pet {
  const pet: Pet = {
    id: Number(row.id),
    name: row.name,
    categoryId: Number(row.category_id),
  };
  // NULL is "no status": the property stays absent rather than being null.
  if (row.status !== null) pet.status = row.status;
  return pet;
}

/** A pet row as an array of its columns in `PET_COLUMNS` order (better-sqlite3's raw mode). */
export type PetTuple = [id: number, name: string, categoryId: number, status: PetStatus | null];

/**
 * `petFromRow` for a raw row: the driver hands over an array, and the object is built here in
 * JavaScript, which is cheaper than the driver building one object per row and this mapping
 * copying it (a list page reads 21 rows).
 */
export function petFromTuple([id, name, categoryId, status]: PetTuple): Pet {
  return status === null ? { id, name, categoryId } : { id, name, categoryId, status };
}

/**
 * A pet row just written, as a `Pet`, strictly: its id goes back to the caller in a 201, so an
 * id beyond ±(2^53−1) fails loudly rather than handing out a rounded id (another pet's).
 */
export function createdPetFromRow(row: PetRow): Pet {
  toSafeInteger(row.id, 'pets.id');
  toSafeInteger(row.category_id, 'pets.category_id');
  return petFromRow(row);
}

export function apiKeyFromRow(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: toSafeInteger(row.id, 'api_keys.id'),
    name: row.name,
    plan: row.plan,
    perMinute: toSafeInteger(row.per_minute, 'api_keys.per_minute'),
    perDay: toSafeInteger(row.per_day, 'api_keys.per_day'),
    displayPrefix: row.display_prefix,
    createdAt: toIso(row.created_at),
    revokedAt: row.revoked_at === null ? null : toIso(row.revoked_at),
    expiresAt: row.expires_at === null ? null : toIso(row.expires_at),
    replacesId:
      row.replaces_id === null ? null : toSafeInteger(row.replaces_id, 'api_keys.replaces_id'),
  };
}
