// Which values a schema allows: `type` (and OpenAPI 3.0's `nullable`), `enum`/`const`,
// `x-extensible-enum`, and the `default` a server applies when a request omits a value.

export const keywords = ['type', 'nullable', 'enum', 'const', 'x-extensible-enum', 'default'];

/** @param {import('./index.mjs').SchemaPair} c */
export function compareValues(c) {
  compareTypes(c);
  compareEnums(c);
  compareExtensibleEnums(c);
  compareDefaults(c);
}

/** The set of JSON types a schema allows, or null when it does not say. */
function typesOf(schema) {
  if (schema.type === undefined) return null;
  const types = new Set([schema.type].flat());
  if (schema.nullable === true) types.add('null');
  return types;
}

/** @param {import('./index.mjs').SchemaPair} c */
function compareTypes(c) {
  const before = typesOf(c.b);
  const after = typesOf(c.a);
  if (before === null && after === null) return;
  if (before === null) {
    c.narrowed('type-added', `type restricted to ${[...after].join(' | ')}`, 'type', 'drop `type`');
    return;
  }
  if (after === null) {
    c.widened(
      'type-removed',
      'type constraint removed',
      'type',
      `keep \`type: ${[...before].join(' | ')}\``,
    );
    return;
  }
  const covers = (set, t) => set.has(t) || (t === 'integer' && set.has('number'));
  const removed = [...before].filter((t) => !covers(after, t));
  const added = [...after].filter((t) => !covers(before, t));
  const fix = `keep \`type: ${[...before].join(' | ')}\``;
  if (removed.length > 0)
    c.narrowed('type-removed', `type ${removed.join(' | ')} no longer accepted`, 'type', fix);
  if (added.length > 0)
    c.widened('type-added', `may now be of type ${added.join(' | ')}`, 'type', fix);
}

/** The values (JSON-encoded) a schema allows by `enum`/`const`, or null. */
function valuesOf(schema) {
  if ('const' in schema) return new Set([JSON.stringify(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map((v) => JSON.stringify(v)));
  return null;
}

/** @param {import('./index.mjs').SchemaPair} c */
function compareEnums(c) {
  const before = valuesOf(c.b);
  const after = valuesOf(c.a);
  const keyword = 'const' in c.a ? 'const' : 'enum';
  if (before === null && after === null) return;
  if (before === null) {
    c.narrowed('enum-added', 'values restricted to an enum', keyword, 'drop the enum');
    return;
  }
  if (after === null) {
    c.widened('enum-removed', 'no longer restricted to an enum', keyword, 'keep the enum');
    return;
  }
  const removed = [...before].filter((v) => !after.has(v));
  const added = [...after].filter((v) => !before.has(v));
  if (removed.length > 0) {
    c.narrowed(
      'enum-value-removed',
      `value(s) ${removed.join(', ')} no longer accepted`,
      keyword,
      `keep ${removed.join(', ')}`,
    );
  }
  if (added.length > 0) {
    c.widened(
      'enum-value-added',
      `may now hold the new value(s) ${added.join(', ')}`,
      keyword,
      `drop ${added.join(', ')}, or declare the list \`x-extensible-enum\` from the start`,
    );
  }
}

/**
 * `x-extensible-enum` (Zalando's guideline 112): the list may grow, so a response gaining a
 * value is expected; a request must still accept every value it listed.
 * @param {import('./index.mjs').SchemaPair} c
 */
function compareExtensibleEnums(c) {
  const before = c.b['x-extensible-enum'];
  const after = c.a['x-extensible-enum'];
  if (!Array.isArray(before) && !Array.isArray(after)) return;
  const b = new Set((before ?? []).map((v) => JSON.stringify(v)));
  const a = new Set((after ?? []).map((v) => JSON.stringify(v)));
  const removed = [...b].filter((v) => !a.has(v));
  const added = [...a].filter((v) => !b.has(v));
  if (removed.length > 0) {
    c.changed(
      c.dir === 'request' ? 'breaking' : 'non-breaking',
      'extensible-enum-value-removed',
      `extensible enum value(s) ${removed.join(', ')} removed`,
      'x-extensible-enum',
      `keep ${removed.join(', ')}`,
    );
  }
  if (added.length > 0) {
    c.changed(
      'non-breaking',
      'extensible-enum-value-added',
      `extensible enum value(s) ${added.join(', ')} added`,
      'x-extensible-enum',
    );
  }
}

/**
 * A request value's `default` is what the server uses when a client omits it: changing,
 * adding or removing one changes what such a client gets. A response's is documentation.
 * @param {import('./index.mjs').SchemaPair} c
 */
function compareDefaults(c) {
  const before = JSON.stringify(c.b.default);
  const after = JSON.stringify(c.a.default);
  if (before === after) return;
  const what =
    before === undefined
      ? `default ${after} added`
      : after === undefined
        ? `default ${before} removed`
        : `default changed from ${before} to ${after}`;
  c.changed(
    c.dir === 'request' ? 'breaking' : 'documentation',
    'default-changed',
    `${what} (clients that omit the value get other behaviour)`,
    'default',
    before === undefined ? 'leave the value without a default' : `keep \`default: ${before}\``,
  );
}
