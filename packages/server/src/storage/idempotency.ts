import type { Pet } from '@petstore/types';
import type { IdempotentCreate, IdempotentOutcome } from './store.js';

/** What both adapters read of a live idempotency record. */
export interface IdempotencyRow {
  fingerprint: string;
  response_body: string;
}

/**
 * The answer to a request whose `Idempotency-Key` has a live record: the recorded create when
 * the body is the same one, a refusal when it is another.
 */
export function replayOrRefuse(row: IdempotencyRow, request: IdempotentCreate): IdempotentOutcome {
  return row.fingerprint === request.fingerprint
    ? { kind: 'replayed', pet: JSON.parse(row.response_body) as Pet }
    : { kind: 'reused' };
}

/**
 * The values of a new idempotency record on SQLite, in column order (api_key_id,
 * idempotency_key, fingerprint, pet_id, response_status, response_body); the writer adds the
 * timestamps. PostgreSQL builds the same record in SQL (`petstore_create_pet_once`, whose
 * `response_body` must stay the pet as the 201 wrote it: the contract test *replays a pet
 * without a status exactly* holds both stores to it).
 */
export function recordValues(
  request: IdempotentCreate,
  created: Pet,
): [number, string, string, number, number, string] {
  return [
    request.apiKeyId,
    request.key,
    request.fingerprint,
    created.id,
    201,
    JSON.stringify(created),
  ];
}
