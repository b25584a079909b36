// The pets every target serves, defined once: seed.mjs writes them into our store with SQL,
// the baselines build them in memory from the same rule, so every target sends the same bytes
// for the same request (run.mjs checks that before measuring).

/** Pets stored for the ordinary scenarios and for the scale scenarios. */
export const NORMAL_PETS = 1_000;
export const SCALE_PETS = 1_000_000;

export const STATUSES = ['available', 'pending', 'sold'];

/**
 * Pet number `id` (1-based), in the key order our store returns (id, name, categoryId, status).
 * seed.mjs writes the same rule in SQL: `'Pet ' || id`, `id % 7 + 1`, STATUSES[id % 3].
 */
export function petAt(id) {
  return { id, name: `Pet ${id}`, categoryId: (id % 7) + 1, status: STATUSES[id % 3] };
}

/** Our server's opaque page cursor: the base64url of the decimal last id (routes/cursor.ts). */
export function cursorAfter(id) {
  return Buffer.from(String(id), 'utf8').toString('base64url');
}
