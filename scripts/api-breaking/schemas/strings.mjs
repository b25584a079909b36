// `pattern` and `format`. A pattern is compared by structure (patterns.mjs): one that
// accepts a superset only widens, one that accepts a subset only narrows, and when neither
// can be shown the finding is `review` with the pattern's location.
import { patternCovers } from './patterns.mjs';

export const keywords = ['pattern', 'format'];

/** Integer ranges of the OpenAPI formats: adding one the bounds already imply accepts no less. */
const integerFormats = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** Whether `format` (int32, int64) adds nothing to the schema's type and bounds. */
function formatImpliedByBounds(schema) {
  const range = integerFormats[schema.format];
  return (
    range !== undefined &&
    schema.type === 'integer' &&
    typeof schema.minimum === 'number' &&
    typeof schema.maximum === 'number' &&
    schema.minimum >= range[0] &&
    schema.maximum <= range[1]
  );
}

/** @param {import('./index.mjs').SchemaPair} c */
export function compareStrings(c) {
  comparePatterns(c);
  const [x, y] = [c.b.format, c.a.format];
  if (x === y) return;
  const what =
    x === undefined
      ? `\`format: ${y}\` added`
      : y === undefined
        ? `\`format: ${x}\` removed`
        : `\`format\` changed from ${x} to ${y}`;
  const fix = x === undefined ? 'drop `format`' : `keep \`format: ${x}\``;
  if (x === undefined) {
    if (!formatImpliedByBounds(c.a)) c.narrowed('format-added', what, 'format', fix);
  } else if (y === undefined) c.widened('format-removed', what, 'format', fix);
  else {
    c.narrowed('format-changed', what, 'format', fix);
    c.widened('format-changed', what, 'format', fix);
  }
}

/** @param {import('./index.mjs').SchemaPair} c */
function comparePatterns(c) {
  const [x, y] = [c.b.pattern, c.a.pattern];
  if (x === y) return;
  const what =
    x === undefined
      ? `\`pattern\` ${JSON.stringify(y)} added`
      : y === undefined
        ? `\`pattern\` ${JSON.stringify(x)} removed`
        : `\`pattern\` changed from ${JSON.stringify(x)} to ${JSON.stringify(y)}`;
  const fix =
    x === undefined
      ? 'drop `pattern`'
      : `keep \`pattern: ${x}\` or one that matches every string it matched`;
  if (x === undefined) return c.narrowed('pattern-added', what, 'pattern', fix);
  if (y === undefined) return c.widened('pattern-removed', what, 'pattern', fix);
  const wider = patternCovers(y, x);
  const narrower = patternCovers(x, y);
  if (wider && narrower)
    return c.changed('non-breaking', 'pattern-respelled', `${what} (the same strings)`, 'pattern');
  if (wider) return c.widened('pattern-loosened', what, 'pattern', fix);
  if (narrower) return c.narrowed('pattern-tightened', what, 'pattern', fix);
  c.changed(
    'review',
    'pattern-changed',
    `${what}: whether one accepts all the other did could not be decided; review it`,
    'pattern',
    fix,
  );
}
