// Keywords that describe a schema without constraining its values: their changes are
// documentation, listed by the changelog and never failing the gate.

export const keywords = [
  'title',
  'description',
  'example',
  'examples',
  'externalDocs',
  'deprecated',
  '$comment',
  'summary',
];

/** @param {import('./index.mjs').SchemaPair} c */
export function compareAnnotations(c) {
  for (const key of keywords) {
    if (JSON.stringify(c.b[key]) === JSON.stringify(c.a[key])) continue;
    if (key === 'deprecated' && c.a.deprecated === true) {
      c.changed('non-breaking', 'deprecated', 'deprecated', key);
    } else {
      c.changed('documentation', 'documentation-changed', `\`${key}\` changed`, key);
    }
  }
}
