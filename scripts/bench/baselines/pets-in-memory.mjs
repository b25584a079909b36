// The store and page logic every baseline shares, so the baselines differ only in their HTTP
// stack. It answers like our server (same pets, same page, same Link header) from an array.
import { cursorAfter, petAt } from '../dataset.mjs';

/** The Error body of the contract. */
export function errorBody(status, code, message) {
  return { code, message, status };
}

export const unauthorized = errorBody(401, 'unauthorized', 'Missing bearer token.');

/** `count` pets with ids 1…count; pets[id - 1] is pet `id`, so a cursor is an index. */
export function petsInMemory(count) {
  const pets = Array.from({ length: count }, (_, index) => petAt(index + 1));
  return {
    get: (id) => pets[id - 1],
    create({ name, categoryId, status }) {
      const pet = { id: pets.length + 1, name, categoryId, ...(status ? { status } : {}) };
      pets.push(pet);
      return pet;
    },
    /** Up to `limit` pets after `afterId` with `status` (any when undefined), in id order. */
    list({ limit, status, afterId = 0 }) {
      const page = [];
      for (let i = afterId; i < pets.length && page.length < limit; i += 1) {
        if (status === undefined || pets[i].status === status) page.push(pets[i]);
      }
      return page;
    },
  };
}

/**
 * `GET /v1/pets` from query strings: `{ page, link }` (link undefined on the last page), or
 * `undefined` for a cursor our server would not have issued.
 */
export function listPage(store, query) {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  const status = query.status;
  let afterId = 0;
  if (query.cursor !== undefined) {
    afterId = Number(Buffer.from(query.cursor, 'base64url').toString('utf8'));
    if (!Number.isSafeInteger(afterId) || cursorAfter(afterId) !== query.cursor) return undefined;
  }
  const rows = store.list({ limit: limit + 1, status, afterId });
  const page = rows.slice(0, limit);
  if (rows.length <= limit) return { page, link: undefined };
  const next = new URLSearchParams({ limit: String(limit) });
  if (status !== undefined) next.set('status', status);
  next.set('cursor', cursorAfter(page.at(-1).id));
  return { page, link: `</v1/pets?${next}>; rel="next"` };
}
