// Direction-aware comparison of two JSON Schemas (OpenAPI 3.1 = JSON Schema 2020-12; the
// 3.0 `nullable` is read too).
//
// Whether a change breaks a consumer depends on which way the data flows:
//   - 'request'  (what the API receives): accepting LESS than before breaks clients (a lower
//     maximum, a new required property, a removed enum value, a removed type).
//   - 'response' (what the API sends): producing MORE than before breaks clients (a higher
//     maximum, a new enum value, a property that may now be absent, a new type).
// A rule calls `narrowed` when fewer values are valid than before and `widened` when more
// are; the direction decides which of the two breaks. Keywords no rule models are `review`.
import { compareAnnotations, keywords as annotationKeywords } from './annotations.mjs';
import { compareBounds, keywords as boundKeywords } from './bounds.mjs';
import { alternatives, flatten } from './composition.mjs';
import { compareObjects, keywords as objectKeywords } from './objects.mjs';
import { compareStrings, keywords as stringKeywords } from './strings.mjs';
import { compareValues, keywords as valueKeywords } from './values.mjs';
import { pointer } from '../findings.mjs';

/** Keywords some rule compares; `$ref`, `$schema`, `$id` and `x-` extensions are skipped. */
const modelled = new Set([
  ...annotationKeywords,
  ...boundKeywords,
  ...objectKeywords,
  ...stringKeywords,
  ...valueKeywords,
  'discriminator',
  'xml',
  'contentMediaType',
  'contentEncoding',
]);

/**
 * @typedef {object} SchemaPair What a rule sees: one schema pair at one place.
 * @property {'request' | 'response'} dir
 * @property {any} b The released schema (`allOf` folded in, subschemas as `$ref`s).
 * @property {any} a The working schema.
 * @property {(rule: string, what: string, keyword: string, fix?: string) => void} narrowed
 * @property {(rule: string, what: string, keyword: string, fix?: string) => void} widened
 * @property {(kind: import('../findings.mjs').Kind, rule: string, what: string, keyword: string, fix?: string) => void} changed
 * @property {(segments: (string|number)[], suffix: string) => void} walk Compares a subschema.
 * @property {(schema: any, property: string, flag: string) => boolean} flagOf Whether a
 *   property of `schema` (`c.b` or `c.a`) carries `readOnly`/`writeOnly`.
 */

/**
 * @typedef {object} SchemaComparison
 * @property {'request' | 'response'} direction
 * @property {string} group
 * @property {string} where Human-readable location, e.g. `POST /pets request body`.
 * @property {{ value: unknown, path: (string|number)[] }} before
 * @property {{ value: unknown, path: (string|number)[] }} after
 */

/**
 * Compares two schemas; a missing schema accepts anything.
 *
 * @param {SchemaComparison} comparison
 * @param {{ before: Function, after: Function }} resolve Resolvers of each description.
 * @param {(finding: any) => void} report Receives each finding.
 * @example
 * compareSchemas({ direction: 'request', group: 'POST /pets', where: 'POST /pets request body',
 *   before: { value: schemaA, path: ['components', 'schemas', 'NewPet'] },
 *   after: { value: schemaB, path: ['components', 'schemas', 'NewPet'] } }, resolve, report);
 */
export function compareSchemas(comparison, resolve, report) {
  const { direction, group } = comparison;
  walk(comparison.before, comparison.after, comparison.where, report, new Set());

  function walk(before, after, where, sink, seen) {
    let b = resolve.before(before.value ?? true, before.path);
    let a = resolve.after(after.value ?? true, after.path);
    const key = `${pointer(b.path)} ${pointer(a.path)}`;
    if (seen.has(key)) return; // a recursive schema: this pair is being compared already
    const inner = new Set(seen).add(key);
    if (typeof b.node === 'boolean' || typeof a.node === 'boolean') {
      const accepts = (node) => node !== false;
      if (accepts(b.node) === accepts(a.node) && typeof b.node === typeof a.node) return;
      b = { ...b, node: b.node === true ? {} : b.node };
      a = { ...a, node: a.node === true ? {} : a.node };
      if (b.node === false || a.node === false) {
        const pair = pairFor(b, a, where, sink, inner);
        const what = `schema changed from ${JSON.stringify(b.node)} to ${JSON.stringify(a.node)}`;
        if (a.node === false) pair.narrowed('schema-false', what, '', 'accept what was accepted');
        else pair.widened('schema-false', what, '', 'keep the schema `false`');
        return;
      }
    }
    b = flatten(b, resolve.before);
    a = flatten(a, resolve.after);
    const bAlternatives = alternatives(b, resolve.before);
    const aAlternatives = alternatives(a, resolve.after);
    if (bAlternatives || aAlternatives) {
      compareAlternatives(
        bAlternatives ?? [{ ...b, label: 'the schema' }],
        aAlternatives ?? [{ ...a, label: 'the schema' }],
        where,
        sink,
        inner,
      );
      compareDiscriminators(pairFor(b, a, where, sink, inner));
      return;
    }
    const pair = pairFor(b, a, where, sink, inner);
    compareValues(pair);
    compareBounds(pair);
    compareStrings(pair);
    compareObjects(pair);
    compareAnnotations(pair);
    for (const keyword of new Set([...Object.keys(b.node), ...Object.keys(a.node)])) {
      if (modelled.has(keyword) || keyword.startsWith('x-') || keyword.startsWith('$')) continue;
      if (JSON.stringify(b.node[keyword]) !== JSON.stringify(a.node[keyword])) {
        pair.changed(
          'review',
          'keyword-not-modelled',
          `\`${keyword}\` changed (not understood by this checker: review it)`,
          keyword,
        );
      }
    }
  }

  /** The rule-facing view of one schema pair. */
  function pairFor(b, a, where, sink, seen) {
    const emit = (kind, rule, what, keyword, fix) => {
      const at = (loc) =>
        keyword && loc.node?.[keyword] !== undefined ? [...loc.path, keyword] : loc.path;
      sink({
        rule: `${direction}-${rule}`,
        kind,
        group,
        message: `${where}: ${what}`,
        ...(kind === 'breaking' || kind === 'review' ? { fix } : {}),
        at: { before: at(b), after: at(a) },
      });
    };
    /** @type {SchemaPair} */
    const pair = {
      dir: direction,
      b: b.node,
      a: a.node,
      narrowed: (rule, what, keyword, fix) =>
        emit(direction === 'request' ? 'breaking' : 'non-breaking', rule, what, keyword, fix),
      widened: (rule, what, keyword, fix) =>
        emit(direction === 'response' ? 'breaking' : 'non-breaking', rule, what, keyword, fix),
      changed: (kind, rule, what, keyword, fix) => emit(kind, rule, what, keyword, fix),
      walk: (segments, suffix) => {
        const sub = (loc, side) => ({
          value: segments.reduce((node, s) => node?.[s], loc.node),
          path: [...loc.path, ...segments],
          side,
        });
        walk(sub(b, 'before'), sub(a, 'after'), `${where}${suffix}`, sink, seen);
      },
      flagOf: (schema, property, flag) => {
        const side = schema === b.node ? resolve.before : resolve.after;
        const loc = schema === b.node ? b : a;
        const value = schema.properties?.[property];
        return (
          value !== undefined &&
          side(value, [...loc.path, 'properties', property]).node?.[flag] === true
        );
      },
    };
    return pair;
  }

  /** Compares in a scratch sink: the findings and whether any would fail the gate. */
  function trial(b, a, where, seen) {
    const found = [];
    walk(
      { value: b.node, path: b.path },
      { value: a.node, path: a.path },
      where,
      (f) => found.push(f),
      seen,
    );
    return { found, fails: found.some((f) => f.kind === 'breaking' || f.kind === 'review') };
  }

  function compareAlternatives(bs, as, where, sink, seen) {
    // Request: each old alternative needs a new one accepting at least as much (compared in
    // the request direction). Response: each new alternative needs an old one accepting at
    // least as much (compared in the response direction). `trial` uses the walk's direction.
    const [from, to] = direction === 'request' ? [bs, as] : [as, bs];
    const matched = new Set();
    for (const alternative of from) {
      const order = [...to].sort(
        (x, y) => Number(y.label === alternative.label) - Number(x.label === alternative.label),
      );
      let fit;
      let closest;
      for (const candidate of order) {
        const [b, a] =
          direction === 'request' ? [alternative, candidate] : [candidate, alternative];
        const result = trial(b, a, `${where} (${alternative.label})`, seen);
        if (!result.fails) {
          fit = { candidate, result };
          break;
        }
        closest ??= result;
      }
      if (fit) {
        matched.add(fit.candidate);
        for (const f of fit.result.found) sink(f);
      } else {
        const why = closest?.found.find((f) => f.kind === 'breaking' || f.kind === 'review');
        sink({
          rule:
            direction === 'request' ? 'request-alternative-removed' : 'response-alternative-added',
          kind: why?.kind === 'review' ? 'review' : 'breaking',
          group,
          message:
            direction === 'request'
              ? `${where}: alternative ${alternative.label} no longer accepted${why ? ` (closest: ${why.message})` : ''}`
              : `${where}: may now send alternative ${alternative.label}${why ? ` (closest: ${why.message})` : ''}`,
          fix:
            direction === 'request'
              ? `keep an alternative that accepts what ${alternative.label} accepted`
              : `send only what an existing alternative allowed`,
          // The alternative a request no longer accepts is in the baseline; the one a
          // response may now send is in the working description.
          at: direction === 'request' ? { before: alternative.path } : { after: alternative.path },
        });
      }
    }
    for (const alternative of to) {
      if (matched.has(alternative) || (bs.length === 1 && as.length === 1)) continue;
      sink({
        rule:
          direction === 'request' ? 'request-alternative-added' : 'response-alternative-removed',
        kind: 'non-breaking',
        group,
        message: `${where}: alternative ${alternative.label} ${direction === 'request' ? 'added' : 'no longer sent'}`,
        at: direction === 'request' ? { after: alternative.path } : { before: alternative.path },
      });
    }
  }

  /** @param {SchemaPair} c */
  function compareDiscriminators(c) {
    const x = c.b.discriminator?.propertyName;
    const y = c.a.discriminator?.propertyName;
    if (x !== undefined && y !== undefined && x !== y) {
      c.changed(
        'breaking',
        'discriminator-changed',
        `discriminator changed from \`${x}\` to \`${y}\``,
        'discriminator',
        `keep \`propertyName: ${x}\``,
      );
    }
    // A discriminator added to (or dropped from) the same alternatives changes no value:
    // the alternatives themselves were compared above.
    if (!c.b.discriminator?.mapping || !c.a.discriminator?.mapping) return;
    const mapB = c.b.discriminator.mapping;
    const mapA = c.a.discriminator.mapping;
    for (const value of Object.keys(mapB)) {
      if (!(value in mapA))
        c.narrowed(
          'discriminator-value-removed',
          `discriminator value \`${value}\` removed`,
          'discriminator',
          `keep \`${value}\``,
        );
    }
    for (const value of Object.keys(mapA)) {
      if (!(value in mapB))
        c.widened(
          'discriminator-value-added',
          `discriminator value \`${value}\` added`,
          'discriminator',
          `drop \`${value}\``,
        );
    }
  }
}
