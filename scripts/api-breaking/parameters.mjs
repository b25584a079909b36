// Parameters of one operation: matched by location and name (header names ignoring case,
// path variables by their position in the template), then compared for presence,
// requiredness, serialisation (`style`/`explode`) and schema.
import { pastSunset } from './lifecycle.mjs';
import { variablesOf } from './paths.mjs';
import { compareSchemas } from './schemas/index.mjs';

/**
 * @typedef {object} OperationContext
 * @property {string} group e.g. `GET /pets` or `webhook petAdded`.
 * @property {'request' | 'response'} calls Direction of what the caller sends (parameters,
 *   request body): `request` for paths; `response` for webhooks, which the API sends.
 * @property {'request' | 'response'} answers Direction of the answers (responses).
 * @property {{ before: Function, after: Function }} resolve
 * @property {(finding: any) => void} report
 * @property {Date} now For sunsets.
 */

/** The effective `style` and `explode` of a parameter (OpenAPI 3.1 §4.8.12.4 defaults). */
function serialisation(p) {
  const style = p.style ?? { query: 'form', cookie: 'form' }[p.in] ?? 'simple';
  return { style, explode: p.explode ?? style === 'form' };
}

/**
 * The parameters of an operation (path-level ones overridden by the operation's), keyed.
 * @returns {Map<string, { node: any, path: (string|number)[] }>}
 */
export function parametersOf(item, op, template, resolve) {
  const variables = variablesOf(template);
  const out = new Map();
  for (const [owner, prefix] of [
    [item.node, item.path],
    [op.node, op.path],
  ]) {
    (owner?.parameters ?? []).forEach((raw, i) => {
      const p = resolve(raw, [...prefix, 'parameters', i]);
      const name = p.node.in === 'header' ? p.node.name.toLowerCase() : p.node.name;
      const position = variables.indexOf(p.node.name);
      const key =
        p.node.in === 'path' && position >= 0 ? `path #${position}` : `${p.node.in} ${name}`;
      out.set(key, p);
    });
  }
  return out;
}

/**
 * Compares two operations' parameters.
 * @param {OperationContext} ctx
 */
export function compareParameters(ctx, before, after, where) {
  const { report, group, calls } = ctx;
  const label = (p) => `${p.in} ${p.name}`;
  for (const [key, { node: p, path }] of before) {
    const found = after.get(key);
    if (found === undefined) {
      const sunset = pastSunset(p, ctx.resolve.before, ctx.now);
      const ignored = calls === 'request' && (p.in === 'header' || p.in === 'cookie');
      report({
        rule: sunset ? 'parameter-removed-after-sunset' : 'parameter-removed',
        kind: sunset || ignored ? 'non-breaking' : 'breaking',
        group,
        message: `${where}: parameter ${label(p)} removed${sunset ? ` after its sunset (${sunset.toUTCString()})` : ''}`,
        fix: `keep ${label(p)}, deprecate it with a Sunset date and remove it after that date`,
        at: { before: path },
      });
      continue;
    }
    const { node: q, path: qPath } = found;
    const at = { before: path, after: qPath };
    if (p.name !== q.name && p.in === 'path') {
      report({
        rule: 'path-variable-renamed',
        kind: 'documentation',
        group,
        message: `${where}: path variable {${p.name}} renamed {${q.name}}`,
        at,
      });
    }
    if (!p.required && q.required) {
      report({
        rule: 'parameter-required',
        kind: calls === 'request' ? 'breaking' : 'non-breaking',
        group,
        message: `${where}: parameter ${label(q)} is now required`,
        fix: `keep ${label(q)} optional`,
        at,
      });
    }
    if (p.required && !q.required) {
      report({
        rule: 'parameter-optional',
        kind: calls === 'response' ? 'breaking' : 'non-breaking',
        group,
        message: `${where}: parameter ${label(q)} is no longer required`,
        fix: `keep ${label(q)} required`,
        at,
      });
    }
    if (!p.deprecated && q.deprecated) {
      report({
        rule: 'parameter-deprecated',
        kind: 'non-breaking',
        group,
        message: `${where}: parameter ${label(q)} deprecated`,
        at,
      });
    }
    if (p.description !== q.description) {
      report({
        rule: 'documentation-changed',
        kind: 'documentation',
        group,
        message: `${where}: parameter ${label(q)} description changed`,
        at,
      });
    }
    compareSerialisation(ctx, p, q, at, where);
    compareSchemas(
      {
        direction: calls,
        group,
        where: `${where} parameter ${label(p)}`,
        before: { value: p.schema, path: [...path, 'schema'] },
        after: { value: q.schema, path: [...qPath, 'schema'] },
      },
      ctx.resolve,
      report,
    );
  }
  for (const [key, { node: q, path }] of after) {
    if (before.has(key)) continue;
    const breaks = q.required && calls === 'request';
    report({
      rule: breaks ? 'parameter-required-added' : 'parameter-added',
      kind: breaks ? 'breaking' : 'non-breaking',
      group,
      message: `${where}: new ${q.required ? 'required' : 'optional'} parameter ${label(q)}`,
      fix: `make ${label(q)} optional`,
      at: { after: path },
    });
  }
}

/**
 * A change of `style`/`explode` changes the bytes only for a path parameter or a value that
 * may be an array or an object: a single query, header or cookie value is written
 * `name=value` (or the bare value) whatever the style.
 */
function compareSerialisation(ctx, p, q, at, where) {
  const x = serialisation(p);
  const y = serialisation(q);
  if (x.style === y.style && x.explode === y.explode) return;
  const schema = ctx.resolve.after(q.schema ?? {}).node;
  const types = schema?.type === undefined ? ['array', 'object'] : [schema.type].flat();
  const structured = types.includes('array') || types.includes('object');
  const breaks = p.in === 'path' || structured;
  const what = `style/explode changed from ${x.style}/${x.explode} to ${y.style}/${y.explode}`;
  ctx.report({
    rule: 'parameter-serialisation-changed',
    kind: breaks ? 'breaking' : 'non-breaking',
    group: ctx.group,
    message: `${where}: parameter ${q.in} ${q.name} ${what}${breaks ? '' : ' (a single value is written the same way)'}`,
    fix: `keep style ${x.style} and explode ${x.explode}`,
    at,
  });
}
