/**
 * The bearer token of an `Authorization` header (RFC 6750 §2.1: the scheme is
 * case-insensitive), or undefined when the header is absent or uses another scheme.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}
