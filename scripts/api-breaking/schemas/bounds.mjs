// Numeric bounds, `multipleOf` and `uniqueItems`: a request may only loosen them, a
// response may only tighten them.

/** Upper bounds: lowering one narrows what a schema accepts. */
export const upperBounds = [
  'maximum',
  'exclusiveMaximum',
  'maxLength',
  'maxItems',
  'maxProperties',
];
/** Lower bounds: raising one narrows what a schema accepts. */
export const lowerBounds = [
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
];

export const keywords = [...upperBounds, ...lowerBounds, 'multipleOf', 'uniqueItems'];

/** @param {import('./index.mjs').SchemaPair} c */
export function compareBounds(c) {
  for (const [keys, tighter] of [
    [upperBounds, (x, y) => y < x],
    [lowerBounds, (x, y) => y > x],
  ]) {
    for (const key of keys) {
      const x = c.b[key];
      const y = c.a[key];
      // OpenAPI 3.0's boolean exclusiveMinimum/Maximum qualify minimum/maximum.
      if (x === y || typeof x === 'boolean' || typeof y === 'boolean') continue;
      if (x === undefined) {
        c.narrowed(`bound-added`, `\`${key}: ${y}\` added`, key, `drop \`${key}\``);
      } else if (y === undefined) {
        c.widened(`bound-removed`, `\`${key}: ${x}\` removed`, key, `keep \`${key}: ${x}\``);
      } else if (tighter(x, y)) {
        c.narrowed(
          `bound-tightened`,
          `\`${key}\` tightened from ${x} to ${y}`,
          key,
          `keep \`${key}: ${x}\``,
        );
      } else {
        c.widened(
          `bound-loosened`,
          `\`${key}\` loosened from ${x} to ${y}`,
          key,
          `keep \`${key}: ${x}\``,
        );
      }
    }
  }
  const [m, n] = [c.b.multipleOf, c.a.multipleOf];
  if (m !== n) {
    // Every multiple of m is a multiple of n exactly when m is a multiple of n.
    const wider = m === undefined ? false : n === undefined || Number.isInteger(m / n);
    const narrower = n === undefined ? false : m === undefined || Number.isInteger(n / m);
    const what = `\`multipleOf\` changed from ${m} to ${n}`;
    if (!narrower)
      c.widened('multiple-of-changed', what, 'multipleOf', `keep \`multipleOf: ${m}\``);
    if (!wider) c.narrowed('multiple-of-changed', what, 'multipleOf', `keep \`multipleOf: ${m}\``);
  }
  const [u, v] = [c.b.uniqueItems === true, c.a.uniqueItems === true];
  if (!u && v)
    c.narrowed('unique-items-added', '`uniqueItems` added', 'uniqueItems', 'drop `uniqueItems`');
  if (u && !v)
    c.widened(
      'unique-items-removed',
      '`uniqueItems` removed',
      'uniqueItems',
      'keep `uniqueItems: true`',
    );
}
