// Internal `$ref` resolution for bundled descriptions, with where each node lives (the
// location a finding points at is the referenced node, not the place that uses it).
import { pointer, segmentsOf } from './findings.mjs';

/**
 * @typedef {object} Located
 * @property {any} node The value, `$ref`s followed.
 * @property {(string|number)[]} path Where it lives in its description.
 */

/**
 * A resolver of one description's `#/...` references, chains included.
 *
 * @param {any} document The parsed bundle.
 * @returns {(value: unknown, path?: (string|number)[]) => Located}
 * @example
 * const resolve = resolverFor(doc);
 * resolve({ $ref: '#/components/schemas/Pet' }).path // ['components', 'schemas', 'Pet']
 */
export function resolverFor(document) {
  return function resolve(value, path = []) {
    let node = value;
    let at = path;
    for (let hops = 0; node && typeof node === 'object' && '$ref' in node; hops++) {
      const ref = node.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#') || hops > 32) {
        throw new Error(`Cannot resolve $ref ${JSON.stringify(ref)}: bundle the description first`);
      }
      at = segmentsOf(ref);
      node = at.reduce((current, part) => current?.[part], document);
      if (node === undefined) throw new Error(`Dangling $ref ${ref}`);
    }
    return { node, path: at };
  };
}

/** A `$ref` object pointing at `path`, so a merged schema keeps where its parts live. */
export function refTo(path) {
  return { $ref: pointer(path) };
}
