// Path templates compared by position: `/pets/{id}` and `/pets/{petId}` are the same URL
// space, so renaming a path variable changes no request a client sends.

/** A template with its variable names erased: `/pets/{petId}` → `/pets/{}`. */
export function shapeOf(template) {
  return template.replace(/\{[^}]*\}/g, '{}');
}

/** The variable names of a template in order: `/a/{x}/b/{y}` → ['x', 'y']. */
export function variablesOf(template) {
  return [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
}

/**
 * Pairs the templates of two `paths` (or `webhooks`) maps: exact keys first, then keys of
 * the same shape.
 *
 * @param {Record<string, unknown>} before
 * @param {Record<string, unknown>} after
 * @returns {{ pairs: [string, string][], removed: string[], added: string[] }}
 */
export function pairTemplates(before, after) {
  const left = Object.keys(before ?? {});
  const unmatched = new Set(Object.keys(after ?? {}));
  const pairs = [];
  const removed = [];
  for (const key of left) {
    if (unmatched.delete(key)) pairs.push([key, key]);
  }
  for (const key of left) {
    if (pairs.some(([b]) => b === key)) continue;
    const twin = [...unmatched].find((k) => shapeOf(k) === shapeOf(key));
    if (twin === undefined) removed.push(key);
    else {
      unmatched.delete(twin);
      pairs.push([key, twin]);
    }
  }
  return { pairs, removed, added: [...unmatched] };
}
