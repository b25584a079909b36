import { createHash } from 'node:crypto';

/**
 * The fingerprint of a request body, compared as a JSON value: the SHA-256 of its canonical
 * JSON (object keys sorted, no spacing), so key order and whitespace do not make two bodies
 * differ.
 */
export function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}

/** JSON with object keys in sorted order at every depth. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}
