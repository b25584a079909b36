// Objects and arrays: `properties`, `required`, `additionalProperties` (closed objects and
// maps), `items`, and `readOnly`/`writeOnly`: a read-only property is never part of a
// request and a write-only one never part of a response (OpenAPI 3.1 §4.8.24), so each is
// compared only in the direction it travels.

export const keywords = [
  'properties',
  'required',
  'additionalProperties',
  'items',
  'readOnly',
  'writeOnly',
];

/** @param {import('./index.mjs').SchemaPair} c */
export function compareObjects(c) {
  const flag = c.dir === 'request' ? 'readOnly' : 'writeOnly';
  const absentIn = (schema, name) => c.flagOf(schema, name, flag);
  const propsB = c.b.properties ?? {};
  const propsA = c.a.properties ?? {};
  const closedAfter = c.a.additionalProperties === false;

  for (const name of new Set([...(c.b.required ?? []), ...(c.a.required ?? [])])) {
    const wasRequired = (c.b.required ?? []).includes(name) && !absentIn(c.b, name);
    const isRequired = (c.a.required ?? []).includes(name) && !absentIn(c.a, name);
    if (c.dir === 'request' && isRequired && !wasRequired) {
      c.narrowed(
        'property-required',
        `property \`${name}\` is now required`,
        'required',
        `make \`${name}\` optional`,
      );
    } else if (c.dir === 'response' && wasRequired && !isRequired) {
      c.widened(
        'property-optional',
        `property \`${name}\` may now be absent`,
        'required',
        `keep \`${name}\` required`,
      );
    } else if (isRequired !== wasRequired) {
      c.changed(
        'non-breaking',
        'property-requiredness',
        `property \`${name}\` ${isRequired ? 'now' : 'no longer'} required`,
        'required',
      );
    }
  }

  for (const name of new Set([...Object.keys(propsB), ...Object.keys(propsA)])) {
    const inB = name in propsB && !absentIn(c.b, name);
    const inA = name in propsA && !absentIn(c.a, name);
    const travels =
      c.dir === 'request'
        ? 'is now read-only (no longer accepted in requests)'
        : 'is now write-only (no longer sent)';
    if (inB && inA) {
      c.walk(['properties', name], `.${name}`);
    } else if (inB && name in propsA) {
      c.changed(
        'breaking',
        `property-${flag === 'readOnly' ? 'read-only' : 'write-only'}`,
        `property \`${name}\` ${travels}`,
        'properties',
        `drop \`${flag}\` from \`${name}\``,
      );
    } else if (inB) {
      if (c.dir === 'response') {
        c.changed(
          'breaking',
          'property-removed',
          `property \`${name}\` removed`,
          'properties',
          `keep \`${name}\``,
        );
      } else if (closedAfter) {
        c.changed(
          'breaking',
          'property-removed',
          `property \`${name}\` removed (unknown properties are rejected)`,
          'properties',
          `keep \`${name}\` or allow additional properties`,
        );
      } else {
        c.changed('non-breaking', 'property-removed', `property \`${name}\` removed`, 'properties');
      }
    } else if (inA) {
      c.changed('non-breaking', 'property-added', `property \`${name}\` added`, 'properties');
    }
  }

  compareAdditional(c);
  compareItems(c);
}

/** @param {import('./index.mjs').SchemaPair} c */
function compareAdditional(c) {
  const x = c.b.additionalProperties;
  const y = c.a.additionalProperties;
  const open = (v) => v === undefined || v === true;
  const isSchema = (v) => v !== null && typeof v === 'object';
  if (isSchema(x) && isSchema(y)) return c.walk(['additionalProperties'], '{*}');
  if (open(x) && open(y)) return;
  if (x === false && y === false) return;
  const describe = (v) =>
    open(v)
      ? 'any additional property'
      : v === false
        ? 'no additional property'
        : 'additional properties of one schema';
  const what = `now allows ${describe(y)} (was ${describe(x)})`;
  // From anything to a schema or false, or from a schema to false: fewer objects are valid.
  const narrows = (open(x) && !open(y)) || (isSchema(x) && y === false);
  if (narrows)
    c.narrowed(
      'additional-properties-restricted',
      what,
      'additionalProperties',
      'keep additional properties as they were',
    );
  else
    c.widened(
      'additional-properties-allowed',
      what,
      'additionalProperties',
      'keep additional properties as they were',
    );
}

/** @param {import('./index.mjs').SchemaPair} c */
function compareItems(c) {
  if (c.b.items === undefined && c.a.items === undefined) return;
  if (c.b.items === undefined)
    return c.narrowed('items-added', '`items` constraint added', 'items', 'drop `items`');
  if (c.a.items === undefined)
    return c.widened('items-removed', '`items` constraint removed', 'items', 'keep `items`');
  c.walk(['items'], '[]');
}
