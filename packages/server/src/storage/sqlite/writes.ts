import type { NewPet, Pet, PetStatus } from '@petstore/types';
import type { Database } from 'better-sqlite3';
import { type IdempotencyRow, recordValues, replayOrRefuse } from '../idempotency.js';
import { createdPetFromRow, PET_COLUMNS, type PetRow } from '../rows.js';
import type { IdempotentCreate, IdempotentOutcome } from '../store.js';

/** A write to the pets' side of the store, as data: what crosses to the writer thread. */
export type WriteOperation =
  | { kind: 'createPet'; pet: NewPet }
  | { kind: 'createIdempotent'; pet: NewPet; request: IdempotentCreate }
  | { kind: 'purgeExpiredIdempotencyKeys'; now: number }
  /** Readiness: a real write, committed like any (so a full or read-only disk fails it). */
  | { kind: 'probe'; now: number };

/** What each write answers. */
export interface WriteResults {
  createPet: Pet;
  createIdempotent: IdempotentOutcome;
  purgeExpiredIdempotencyKeys: number;
  probe: void;
}

/**
 * The writes of the SQLite adapter on one connection, its statements prepared once. Each call is
 * synchronous, runs in the caller's transaction and is all or nothing on its own: one statement
 * (which SQLite undoes alone when it fails), or a savepoint of its own. The writer decides where
 * and when to commit. The same code runs on the writer thread (a file database)
 * and inline (`:memory:`).
 */
export function prepareWrites(db: Database): (operation: WriteOperation) => unknown {
  const insert = db.prepare<[string, number, PetStatus | null], PetRow>(
    `INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${PET_COLUMNS}`,
  );
  const findKey = db.prepare<[number, string], IdempotencyRow & { expires_at: number }>(
    `SELECT fingerprint, response_body, expires_at FROM idempotency_keys
     WHERE api_key_id = ? AND idempotency_key = ?`,
  );
  const recordKey = db.prepare<[number, string, string, number, number, string, number, number]>(
    `INSERT INTO idempotency_keys (api_key_id, idempotency_key, fingerprint, pet_id,
       response_status, response_body, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (api_key_id, idempotency_key) DO NOTHING`,
  );
  const renewKey = db.prepare<[string, number, number, string, number, number, number, string]>(
    `UPDATE idempotency_keys SET fingerprint = ?, pet_id = ?, response_status = ?,
       response_body = ?, created_at = ?, expires_at = ?
     WHERE api_key_id = ? AND idempotency_key = ?`,
  );
  const purge = db.prepare<[number]>('DELETE FROM idempotency_keys WHERE expires_at < ?');
  const probe = db.prepare<[number]>(
    'INSERT INTO health_probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at',
  );

  const createPet = (pet: NewPet): Pet =>
    createdPetFromRow(insert.get(pet.name, pet.categoryId, pet.status ?? null) as PetRow);

  /**
   * Create the pet and record the key, or answer from the key's live record: all or nothing.
   * The pet is inserted first and the key's record after it, so a new key (nearly every call)
   * costs the record's insert alone, whose unique index finds a known key on the way (looking
   * the key up first took 4.6 % more instructions per create: `docs/storage-and-scale.md`).
   * A known live key throws `KnownKey`: the savepoint this call opens undoes the pet's insert
   * and the id it took, and the key is answered as its record says. An expired record is
   * renewed in place for the new pet.
   */
  const createOrThrow = db.transaction((pet: NewPet, request: IdempotentCreate): Pet => {
    const created = createPet(pet);
    const values = recordValues(request, created);
    if (recordKey.run(...values, request.now, request.expiresAt).changes === 1) return created;
    const known = findKey.get(request.apiKeyId, request.key);
    if (known && known.expires_at >= request.now) throw new KnownKey(known);
    const [apiKeyId, key, ...record] = values;
    if (renewKey.run(...record, request.now, request.expiresAt, apiKeyId, key).changes !== 1) {
      throw new Error('The Idempotency-Key conflicted with a record that is not there.');
    }
    return created;
  });
  const createIdempotent = (pet: NewPet, request: IdempotentCreate): IdempotentOutcome => {
    try {
      return { kind: 'created', pet: createOrThrow(pet, request) };
    } catch (error) {
      if (error instanceof KnownKey) return replayOrRefuse(error.record, request);
      throw error;
    }
  };

  return (operation) => {
    switch (operation.kind) {
      case 'createPet':
        return createPet(operation.pet);
      case 'createIdempotent':
        return createIdempotent(operation.pet, operation.request);
      case 'purgeExpiredIdempotencyKeys':
        return purge.run(operation.now).changes;
      case 'probe':
        probe.run(operation.now);
        return undefined;
    }
  };
}

/** A live record of the key being created: thrown to undo the create's insert. */
class KnownKey extends Error {
  constructor(readonly record: IdempotencyRow) {
    super('The Idempotency-Key has a live record.');
  }
}
