/**
 * The `Idempotency-Key` of a request (draft-ietf-httpapi-idempotency-key-header-07): a
 * Structured Field String (`"8e03978e-…"`) or, for compatibility, the bare token; both name the
 * same key, so the quotes are dropped. The validator has already checked the form against the
 * contract (1 to 255 printable ASCII characters without space, `"` or `\`), so what is inside
 * the quotes needs no unescaping. Undefined when the request has none.
 */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  return header.length >= 2 && header.startsWith('"') && header.endsWith('"')
    ? header.slice(1, -1)
    : header;
}
