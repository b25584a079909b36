import type { ListPetsQuery, paths, Pet } from '@petstore/types';
import type { Client } from 'openapi-fetch';
import { withCallSignal } from './caller-signal.js';
import { PetstoreApiError, PetstoreClientError } from './errors.js';
import { findLink } from './headers/link.js';
import type { RateLimitInfo } from './headers/rate-limit.js';

/** The filter of `listAllPets`: `listPets`' query without the cursor, which the links carry. */
export type ListAllPetsFilter = Omit<ListPetsQuery, 'cursor'>;

/**
 * Every pet matching `filter`, page after page: it requests `GET /pets` and then follows
 * each `Link: <…>; rel="next"` (RFC 8288) exactly as given, resolved against the URL of
 * the page that carried it, until a page has none. Pages are fetched lazily, as the
 * iteration goes; `limit` sets the page size.
 *
 * A next link to another origin is refused rather than followed: the request would carry
 * the API key to a server that is not the API's. An Error body (e.g. 401, 429 after the
 * retry budget) is thrown as `PetstoreApiError`, with the rate-limit state `rateLimitOf` reads.
 */
export async function* listAllPets(
  raw: Client<paths>,
  baseUrl: string,
  filter: ListAllPetsFilter = {},
  signal?: AbortSignal,
  rateLimitOf: (response: Response) => RateLimitInfo | undefined = () => undefined,
): AsyncGenerator<Pet, void, undefined> {
  const origin = new URL(baseUrl).origin;
  const visited = new Set<string>();
  let next: URL | undefined;
  for (;;) {
    let requested = '';
    const target = next;
    // Each page is a call of its own on the caller's signal (see caller-signal.ts).
    const { data, error, response } = await withCallSignal(signal, (init) =>
      raw.GET('/pets', {
        params: { query: filter },
        ...init,
        middleware: [
          {
            onRequest({ request }) {
              // Follow the link verbatim: the cursor is opaque and must not be rebuilt.
              const sent = target ? new Request(target, request) : request;
              requested = sent.url;
              return sent;
            },
          },
        ],
      }),
    );
    if (error) throw new PetstoreApiError(error, rateLimitOf(response));
    yield* data;
    next = findLink(response.headers.get('Link'), 'next', response.url || requested);
    if (!next) return;
    if (next.origin !== origin) {
      throw new PetstoreClientError(
        `Refusing to follow a next link to another origin (${next.origin}): it would receive the API key`,
      );
    }
    if (visited.has(next.href)) {
      throw new PetstoreClientError('The next link repeats a page already read; stopping');
    }
    visited.add(next.href);
  }
}
