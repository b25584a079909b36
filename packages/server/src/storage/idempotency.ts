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
 * The values of a new idempotency record, in column order (api_key_id, idempotency_key,
 * fingerprint, pet_id, response_status, response_body); each adapter adds its timestamps.
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
