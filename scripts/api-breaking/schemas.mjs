// Direction-aware comparison of two JSON Schemas (OpenAPI 3.1 = JSON Schema 2020-12).
//
// Whether a change breaks a consumer depends on which way the data flows:
//   - 'request'  (parameters, request bodies): the client sends, the server validates.
//     Accepting LESS than before breaks clients (a lower maximum, a new required
//     property, a removed enum value, a removed type).
//   - 'response' (response bodies, headers): the server sends, the client reads.
//     Producing MORE than before breaks clients (a higher maximum, a new enum value,
//     a property that may now be absent, a new type).
// Changes the checker does not understand are reported as breaking, so the gate errs on
// the side of a human look rather than a silent pass.

/** Keywords that describe a schema without constraining values. */
const annotations = new Set([
  'title',
  'description',
  'example',
  'examples',
  'externalDocs',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'default',
]);

/** Upper bounds: lowering one narrows what a schema accepts. */
const upperBounds = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
/** Lower bounds: raising one narrows what a schema accepts. */
const lowerBounds = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];

/** Keywords compared by dedicated rules below. */
const handled = new Set([
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'required',
  'properties',
  'additionalProperties',
  'items',
  ...upperBounds,
  ...lowerBounds,
]);

/**
 * Compares two dereferenced schemas.
 *
 * @param {unknown} before Schema of the released description.
 * @param {unknown} after Schema of the working description.
 * @param {'request' | 'response'} direction Which way the data flows.
 * @param {string} where Human-readable location, e.g. `POST /pets request body`.
 * @param {{ before: (s: unknown) => unknown, after: (s: unknown) => unknown }} deref Resolves
 *   `$ref`s against the description each schema comes from.
 * @returns {string[]} One message per breaking change.
 */
export function compareSchemas(before, after, direction, where, deref) {
  const problems = [];
  walk(before, after, where, new Set());
  return problems;

  function walk(rawBefore, rawAfter, at, seen) {
    const b = deref.before(rawBefore);
    const a = deref.after(rawAfter);
    if (b === undefined || a === undefined) return;
    if (seen.has(b)) return; // a recursive schema: this pair is being compared already
    const inner = new Set(seen).add(b);
    // `true`/`{}` accept anything, `false` nothing (JSON Schema boolean schemas).
    if (typeof b === 'boolean' || typeof a === 'boolean') {
      if (JSON.stringify(b) !== JSON.stringify(a)) {
        problems.push(`${at}: schema changed from ${JSON.stringify(b)} to ${JSON.stringify(a)}`);
      }
      return;
    }
    compareTypes(b, a, at);
    compareValueSets(b, a, at);
    compareBounds(b, a, at);
    compareStrings(b, a, at);
    compareObjects(b, a, at, inner);
    if (b.items !== undefined || a.items !== undefined) {
      if (b.items === undefined) {
        if (direction === 'request') problems.push(narrowing(at, '`items` constraint added'));
      } else if (a.items === undefined) {
        if (direction === 'response') problems.push(`${at}: \`items\` constraint removed`);
      } else walk(b.items, a.items, `${at}[]`, inner);
    }
    for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
      if (handled.has(key) || annotations.has(key) || key.startsWith('x-') || key === '$ref') {
        continue;
      }
      if (stripAnnotations(b[key]) !== stripAnnotations(a[key])) {
        problems.push(`${at}: \`${key}\` changed (not understood by this checker: review it)`);
      }
    }
  }

  /** A request-side narrowing: requests that were valid are now rejected. */
  function narrowing(at, what) {
    return `${at}: ${what} (requests valid before are now rejected)`;
  }

  function compareTypes(b, a, at) {
    const before = typesOf(b);
    const after = typesOf(a);
    if (before === null && after === null) return;
    if (before === null || after === null) {
      if (after !== null && direction === 'request') {
        problems.push(narrowing(at, `type restricted to ${[...after].join(' | ')}`));
      }
      if (after === null && direction === 'response')
        problems.push(`${at}: type constraint removed`);
      return;
    }
    const removed = [...before].filter(
      (t) => !after.has(t) && !(t === 'integer' && after.has('number')),
    );
    const added = [...after].filter(
      (t) => !before.has(t) && !(t === 'integer' && before.has('number')),
    );
    if (direction === 'request' && removed.length > 0) {
      problems.push(narrowing(at, `type ${removed.join(' | ')} no longer accepted`));
    }
    if (direction === 'response' && added.length > 0) {
      problems.push(`${at}: may now be of type ${added.join(' | ')}`);
    }
  }

  function compareValueSets(b, a, at) {
    const before = valuesOf(b);
    const after = valuesOf(a);
    if (before === null && after === null) return;
    if (before === null) {
      if (direction === 'request') problems.push(narrowing(at, 'values restricted to an enum'));
      return;
    }
    if (after === null) {
      if (direction === 'response') problems.push(`${at}: no longer restricted to an enum`);
      return;
    }
    const removed = [...before].filter((v) => !after.has(v));
    const added = [...after].filter((v) => !before.has(v));
    if (direction === 'request' && removed.length > 0) {
      problems.push(narrowing(at, `value(s) ${removed.join(', ')} no longer accepted`));
    }
    if (direction === 'response' && added.length > 0) {
      problems.push(`${at}: may now hold the new value(s) ${added.join(', ')}`);
    }
  }

  function compareBounds(b, a, at) {
    for (const [keys, tighter] of [
      [upperBounds, (x, y) => y < x],
      [lowerBounds, (x, y) => y > x],
    ]) {
      for (const key of keys) {
        const x = b[key];
        const y = a[key];
        if (x === y) continue;
        if (x === undefined) {
          if (direction === 'request') problems.push(narrowing(at, `\`${key}: ${y}\` added`));
        } else if (y === undefined) {
          if (direction === 'response') problems.push(`${at}: \`${key}: ${x}\` removed`);
        } else if (tighter(x, y)) {
          if (direction === 'request')
            problems.push(narrowing(at, `\`${key}\` tightened from ${x} to ${y}`));
        } else if (direction === 'response') {
          problems.push(`${at}: \`${key}\` loosened from ${x} to ${y}`);
        }
      }
    }
  }

  function compareStrings(b, a, at) {
    for (const key of ['pattern', 'format']) {
      if (b[key] === a[key]) continue;
      if (key === 'pattern' && samePattern(b.pattern, a.pattern)) continue;
      if (key === 'format' && b.format === undefined && formatImpliedByBounds(a)) continue;
      // Two different patterns cannot be compared in general: any change is reported.
      if (b[key] === undefined && direction === 'response') continue;
      if (a[key] === undefined && direction === 'request') continue;
      problems.push(
        `${at}: \`${key}\` changed from ${JSON.stringify(b[key])} to ${JSON.stringify(a[key])}`,
      );
    }
  }

  function compareObjects(b, a, at, seen) {
    const reqBefore = new Set(b.required ?? []);
    const reqAfter = new Set(a.required ?? []);
    if (direction === 'request') {
      for (const name of reqAfter) {
        if (!reqBefore.has(name))
          problems.push(narrowing(at, `property \`${name}\` is now required`));
      }
    } else {
      for (const name of reqBefore) {
        if (!reqAfter.has(name)) problems.push(`${at}: property \`${name}\` may now be absent`);
      }
    }
    const propsBefore = b.properties ?? {};
    const propsAfter = a.properties ?? {};
    const closedAfter = a.additionalProperties === false;
    for (const name of Object.keys(propsBefore)) {
      if (name in propsAfter) {
        walk(propsBefore[name], propsAfter[name], `${at}.${name}`, seen);
      } else if (direction === 'response') {
        problems.push(`${at}: property \`${name}\` removed`);
      } else if (closedAfter) {
        problems.push(
          narrowing(at, `property \`${name}\` removed (unknown properties are rejected)`),
        );
      }
    }
    const wasClosed = b.additionalProperties === false;
    if (direction === 'request' && closedAfter && !wasClosed) {
      problems.push(narrowing(at, 'unknown properties are now rejected'));
    }
  }
}

/**
 * Two patterns that differ only in how they spell a character below U+0100 (`\u001F`,
 * `\x1f`, `\x1F`) match the same strings. Escaped backslashes are consumed pair by pair,
 * so `\\u0041` (a backslash, then `u0041`) is left alone.
 */
function samePattern(x, y) {
  if (typeof x !== 'string' || typeof y !== 'string') return false;
  const canonical = (pattern) =>
    pattern.replace(/\\(?:u00([0-9A-Fa-f]{2})|x([0-9A-Fa-f]{2})|[\s\S])/g, (escape, u, x) =>
      u || x ? `\\x${(u ?? x).toUpperCase()}` : escape,
    );
  return canonical(x) === canonical(y);
}

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

/** The set of JSON types a schema allows, or null when it does not say. */
function typesOf(schema) {
  if (schema.type === undefined) return null;
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}

/** The set of values (JSON-encoded) a schema allows by `enum`/`const`, or null. */
function valuesOf(schema) {
  if ('const' in schema) return new Set([JSON.stringify(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map((v) => JSON.stringify(v)));
  return null;
}

/** JSON text of a value with annotation keywords removed, for "did it change?" checks. */
function stripAnnotations(value) {
  return JSON.stringify(value, (key, v) =>
    annotations.has(key) || key.startsWith('x-') ? undefined : v,
  );
}
