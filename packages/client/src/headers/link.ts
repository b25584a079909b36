import LinkHeader from 'http-link-header';

/**
 * The target of the first link with relation `rel` in a `Link` header (RFC 8288),
 * resolved against `base` (the URL of the response: RFC 8288 §3.1 resolves a relative
 * target reference like any URI reference, RFC 3986 §5). Undefined when there is no such
 * link or the header is malformed.
 *
 * @example
 * ```ts
 * findLink('</v1/pets?cursor=MjA>; rel="next"', 'next', 'https://api.example/v1/pets');
 * // URL https://api.example/v1/pets?cursor=MjA
 * ```
 */
export function findLink(header: string | null, rel: string, base: string): URL | undefined {
  if (!header) return undefined;
  let target: string | undefined;
  try {
    target = LinkHeader.parse(header).rel(rel)[0]?.uri;
  } catch {
    return undefined;
  }
  if (target === undefined) return undefined;
  try {
    return new URL(target, base);
  } catch {
    return undefined;
  }
}
