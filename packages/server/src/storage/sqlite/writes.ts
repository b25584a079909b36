import type { NewPet, Pet, PetStatus } from '@petstore/types';
import type { Database } from 'better-sqlite3';
import { type IdempotencyRow, recordValues, replayOrRefuse } from '../idempotency.js';
import { createdPetFromRow } from '../rows.js';
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
 * (which SQLite undoes alone when it fails, or with the whole transaction after some errors:
 * `write-group.ts`), or a savepoint of its own. The writer decides where and when to commit.
 * The same code runs on the writer thread (a file database) and inline (`:memory:`).
 */
export function prepareWrites(db: Database): (operation: WriteOperation) => unknown {
  // No RETURNING: SQLite carries out a RETURNING clause through an ephemeral table, opened,
  // paged and closed for every insert, and a pet row holds nothing the insert does not already
  // know but its id (the columns have no defaults; the CHECK only refuses). Under callgrind
  // (Node.js 24.21.0, 29 November 2026) the writer thread's part of a create fell from 66 to 51
  // thousand instructions; 12 of the 15 were zeroing the table's three 4 KiB pages, which
  // callgrind counts by the byte (`memset`'s `rep stosb`), so natively the saving is smaller.
  const insert = db.prepare<[string, number, PetStatus | null]>(
    'INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)',
  );
  const findKey = db.prepare<[number, string], IdempotencyRow & { expires_at: number }>(
    `SELECT fingerprint, response_body, expires_at FROM idempotency_keys
     WHERE api_key_id = ? AND idempotency_key = ?`,
  );
  const forgetKey = db.prepare<[number, string]>(
    'DELETE FROM idempotency_keys WHERE api_key_id = ? AND idempotency_key = ?',
  );
  const recordKey = db.prepare<[number, string, string, number, number, string, number, number]>(
    `INSERT INTO idempotency_keys (api_key_id, idempotency_key, fingerprint, pet_id,
       response_status, response_body, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const purge = db.prepare<[number]>('DELETE FROM idempotency_keys WHERE expires_at < ?');
  const probe = db.prepare<[number]>(
    'INSERT INTO health_probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at',
  );

  const createPet = (pet: NewPet): Pet => {
    const status = pet.status ?? null;
    const { lastInsertRowid } = insert.run(pet.name, pet.categoryId, status);
    return createdPetFromRow({
      id: Number(lastInsertRowid),
      name: pet.name,
      category_id: pet.categoryId,
      status,
    });
  };

  /**
   * Check the key, create the pet, record the key: all or nothing, in a savepoint of its own.
   * The key is looked up before the pet is inserted. Inserting the pet first and the record with
   * `ON CONFLICT DO NOTHING`, undoing both for a known key, took 4.6 % fewer instructions for a
   * new key but five times as many for a replay (`docs/benchmarks.md`, *Tried and not kept*).
   */
  const createIdempotent = db.transaction(
    (pet: NewPet, request: IdempotentCreate): IdempotentOutcome => {
      const known = findKey.get(request.apiKeyId, request.key);
      if (known && known.expires_at >= request.now) return replayOrRefuse(known, request);
      if (known) forgetKey.run(request.apiKeyId, request.key);
      const created = createPet(pet);
      recordKey.run(...recordValues(request, created), request.now, request.expiresAt);
      return { kind: 'created', pet: created };
    },
  );

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
