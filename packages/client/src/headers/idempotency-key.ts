import { v4 as randomUuid } from 'uuid';

// The contract's IdempotencyKey: 1 to 255 printable ASCII characters without space, `"` or `\`.
const KEY = /^[\x21\x23-\x5B\x5D-\x7E]{1,255}$/;

/**
 * A fresh `Idempotency-Key` for one logical create: a random (version 4) UUID. `uuid` uses
 * `crypto.randomUUID` where the platform has it and `crypto.getRandomValues` elsewhere (a
 * browser page that is not a secure context has only the latter).
 */
export function newIdempotencyKey(): string {
  return randomUuid();
}

/**
 * The `Idempotency-Key` field value for `key`: a Structured Field String (RFC 9651 §3.3.3),
 * as draft-ietf-httpapi-idempotency-key-header-07 writes it. A key of the contract's form
 * needs no escaping inside the quotes; any other key is refused here, before anything is sent.
 *
 * @example
 * ```ts
 * idempotencyKeyField('8e03978e-40d5-43e8-bc93-6894a57f9324'); // '"8e03978e-40d5-43e8-bc93-6894a57f9324"'
 * ```
 */
export function idempotencyKeyField(key: string): string {
  if (!KEY.test(key)) {
    throw new TypeError(
      'idempotencyKey must be 1 to 255 printable ASCII characters without space, " or \\ (a random UUID is best)',
    );
  }
  return `"${key}"`;
}

/** Whether a response is the replay of an earlier create with the same key (`Idempotent-Replayed: true`). */
export function isReplayed(headers: Headers): boolean {
  return headers.get('Idempotent-Replayed')?.trim().toLowerCase() === 'true';
}
