/**
 * Safe retries of creates (`Idempotency-Key`, draft-ietf-httpapi-idempotency-key-header-07):
 * reading the key, fingerprinting the body, and the keys in flight in this process. The store
 * keeps the records (`PetRepository.createIdempotent`); `routes/pets.ts` puts them together.
 */
export { canonicalJson, fingerprintOf } from './fingerprint.js';
export { idempotencyKeyOf } from './idempotency-key.js';
export { InFlightKeys } from './in-flight.js';
