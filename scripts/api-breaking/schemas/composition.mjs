// allOf, anyOf and oneOf compared by structure, not as text.
//
// An `allOf` is flattened into one schema (properties united, `required` united, bounds
// taken at their tightest) so a property moved between a schema and its shared base, or a
// change inside a base reached through `$ref`, is compared like any other property. An
// `anyOf`/`oneOf` is a set of alternatives, each merged with the keywords beside it; a
// request must still accept every alternative it accepted (each old alternative is matched
// by a new one that accepts at least as much), a response must send no alternative it did
// not (each new alternative is matched by an old one that accepts at least as much).
// Merged schemas keep `$ref`s to the nodes they came from, so findings point at real lines.
import { pointer } from '../findings.mjs';
import { refTo } from '../resolve.mjs';
import { lowerBounds, upperBounds } from './bounds.mjs';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Subschemas replaced by `$ref`s to where they live (unless they already are one). */
function withRefs(node, path) {
  if (!isObject(node)) return node;
  const copy = { ...node };
  const ref = (value, at) => (isObject(value) && '$ref' in value ? value : refTo(at));
  if (isObject(node.properties)) {
    copy.properties = Object.fromEntries(
      Object.entries(node.properties).map(([k, v]) => [k, ref(v, [...path, 'properties', k])]),
    );
  }
  for (const key of ['items', 'additionalProperties', 'not']) {
    if (isObject(node[key])) copy[key] = ref(node[key], [...path, key]);
  }
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    if (Array.isArray(node[key])) copy[key] = node[key].map((v, i) => ref(v, [...path, key, i]));
  }
  return copy;
}

/** The conjunction of two schemas (both with subschemas as `$ref`s), as one schema. */
export function merge(x, y) {
  const out = { ...y, ...x };
  if (x.properties || y.properties) {
    out.properties = { ...y.properties };
    for (const [name, value] of Object.entries(x.properties ?? {})) {
      const other = y.properties?.[name];
      out.properties[name] = other === undefined ? value : { allOf: [value, other] };
    }
  }
  if (x.required || y.required) {
    out.required = [...new Set([...(x.required ?? []), ...(y.required ?? [])])];
  }
  if (x.type !== undefined && y.type !== undefined) {
    const ys = new Set([y.type].flat());
    out.type = [x.type].flat().filter((t) => ys.has(t) || (t === 'integer' && ys.has('number')));
  }
  if (Array.isArray(x.enum) && Array.isArray(y.enum)) {
    const ys = new Set(y.enum.map((v) => JSON.stringify(v)));
    out.enum = x.enum.filter((v) => ys.has(JSON.stringify(v)));
  }
  for (const key of upperBounds) {
    if (typeof x[key] === 'number' && typeof y[key] === 'number')
      out[key] = Math.min(x[key], y[key]);
  }
  for (const key of lowerBounds) {
    if (typeof x[key] === 'number' && typeof y[key] === 'number')
      out[key] = Math.max(x[key], y[key]);
  }
  if (x.additionalProperties === false || y.additionalProperties === false) {
    out.additionalProperties = false;
  } else if (isObject(x.additionalProperties) && isObject(y.additionalProperties)) {
    out.additionalProperties = { allOf: [x.additionalProperties, y.additionalProperties] };
  }
  if (isObject(x.items) && isObject(y.items)) out.items = { allOf: [x.items, y.items] };
  return out;
}

/**
 * A schema with its `allOf` folded in; cycle-safe (a member that is its own ancestor adds
 * nothing).
 *
 * @param {import('../resolve.mjs').Located} located
 * @param {(v: unknown, p?: (string|number)[]) => import('../resolve.mjs').Located} resolve
 * @returns {import('../resolve.mjs').Located}
 */
export function flatten(located, resolve, ancestors = new Set()) {
  const { node, path } = located;
  if (!isObject(node)) return located;
  const own = withRefs(node, path);
  if (!Array.isArray(node.allOf)) return { node: own, path };
  const key = pointer(path);
  const inner = new Set(ancestors).add(key);
  const { allOf: members, ...rest } = own;
  let merged = rest;
  for (const member of members) {
    const resolved = resolve(member, path);
    if (inner.has(pointer(resolved.path))) continue; // a cycle: already being merged
    merged = merge(merged, flatten(resolved, resolve, inner).node);
  }
  return { node: merged, path };
}

/**
 * The alternatives of an `anyOf`/`oneOf` schema, each merged with the keywords beside it,
 * or null when the schema has none.
 *
 * @returns {null | { node: any, path: (string|number)[], label: string }[]}
 */
export function alternatives(located, resolve) {
  const { node, path } = located;
  const keyword = Array.isArray(node?.oneOf) ? 'oneOf' : Array.isArray(node?.anyOf) ? 'anyOf' : '';
  if (keyword === '') return null;
  const { oneOf: _o, anyOf: _a, discriminator: _d, ...base } = node;
  return node[keyword].map((alternative, index) => {
    const resolved = flatten(resolve(alternative, [...path, keyword, index]), resolve);
    const ref = isObject(alternative) && typeof alternative.$ref === 'string';
    return {
      node: merge(base, resolved.node),
      path: resolved.path,
      label: ref ? String(resolved.path.at(-1)) : `${keyword}[${index}]`,
    };
  });
}
