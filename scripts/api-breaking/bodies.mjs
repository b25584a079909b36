// Request bodies, responses, their headers and media types.
//
// A media type is matched exactly, else by a range that covers it (`application/*`,
// `*/*`): a request body now accepted under a wider range is still accepted. A media type
// without a schema accepts (or may send) anything, so gaining a schema narrows a request.
import { compareSchemas } from './schemas/index.mjs';

/** The entry of `content` that serves `type`: the same type, else a range covering it. */
function mediaFor(content, type) {
  if (!content) return undefined;
  if (type in content) return type;
  const [main] = type.split(';')[0].trim().split('/');
  return [`${main}/*`, '*/*'].find((range) => range in content);
}

/** Header names are case-insensitive (RFC 9110 §5.1). */
function headerKey(headers, name) {
  return Object.keys(headers ?? {}).find((k) => k.toLowerCase() === name.toLowerCase());
}

/**
 * Compares the `content` maps of two bodies.
 * @param {import('./parameters.mjs').OperationContext} ctx
 * @param {'request' | 'response'} direction
 */
function compareContent(ctx, direction, before, after, where) {
  const { report, group } = ctx;
  const contentB = before.node.content ?? {};
  const contentA = after.node.content ?? {};
  for (const type of Object.keys(contentB)) {
    const match = mediaFor(contentA, type);
    const pathB = [...before.path, 'content', type];
    if (match === undefined) {
      report({
        rule: `${direction}-media-type-removed`,
        kind: direction === 'request' ? 'breaking' : 'breaking',
        group,
        message:
          direction === 'request'
            ? `${where}: request media type ${type} no longer accepted`
            : `${where}: media type ${type} no longer returned`,
        fix: `keep ${type}`,
        at: { before: pathB },
      });
      continue;
    }
    const pathA = [...after.path, 'content', match];
    compareSchemas(
      {
        direction,
        group,
        where: `${where}${direction === 'request' ? ' request body' : ' body'}`,
        before: { value: contentB[type].schema, path: [...pathB, 'schema'] },
        after: { value: contentA[match].schema, path: [...pathA, 'schema'] },
      },
      ctx.resolve,
      report,
    );
  }
  for (const type of Object.keys(contentA)) {
    if (type in contentB) continue;
    report({
      rule: `${direction}-media-type-added`,
      kind: 'non-breaking',
      group,
      message: `${where}: media type ${type} added`,
      at: { after: [...after.path, 'content', type] },
    });
  }
}

/**
 * Compares request bodies.
 * @param {import('./parameters.mjs').OperationContext} ctx
 */
export function compareRequestBodies(ctx, before, after, where) {
  const { report, group, calls } = ctx;
  if (before.node === undefined && after.node === undefined) return;
  if (before.node === undefined) {
    const breaks = after.node.required && calls === 'request';
    report({
      rule: 'request-body-added',
      kind: breaks ? 'breaking' : 'non-breaking',
      group,
      message: `${where}: ${after.node.required ? 'a request body is now required' : 'optional request body added'}`,
      fix: 'make the request body optional',
      at: { after: after.path },
    });
    return;
  }
  if (after.node === undefined) {
    report({
      rule: 'request-body-removed',
      kind: calls === 'request' ? 'breaking' : 'non-breaking',
      group,
      message: `${where}: request body removed`,
      fix: 'keep the request body',
      at: { before: before.path },
    });
    return;
  }
  if (!before.node.required && after.node.required) {
    report({
      rule: 'request-body-required',
      kind: calls === 'request' ? 'breaking' : 'non-breaking',
      group,
      message: `${where}: the request body is now required`,
      fix: 'keep the request body optional',
      at: { before: before.path, after: after.path },
    });
  }
  if (before.node.description !== after.node.description) {
    report({
      rule: 'documentation-changed',
      kind: 'documentation',
      group,
      message: `${where}: request body description changed`,
      at: { after: after.path },
    });
  }
  compareContent(ctx, calls, before, after, where);
}

/**
 * Compares the responses of two operations (statuses, headers, bodies).
 * @param {import('./parameters.mjs').OperationContext} ctx
 */
export function compareResponses(ctx, before, after, where) {
  const { report, group, answers, resolve } = ctx;
  const responsesA = after.node ?? {};
  for (const [status, raw] of Object.entries(before.node ?? {})) {
    const at = `${where} response ${status}`;
    const b = resolve.before(raw, [...before.path, status]);
    if (!(status in responsesA)) {
      report({
        rule: 'response-status-removed',
        kind: 'breaking',
        group,
        message: `${at}: removed`,
        fix: `keep response ${status}`,
        at: { before: b.path },
      });
      continue;
    }
    const a = resolve.after(responsesA[status], [...after.path, status]);
    if (b.node.description !== a.node.description) {
      report({
        rule: 'documentation-changed',
        kind: 'documentation',
        group,
        message: `${at}: description changed`,
        at: { after: a.path },
      });
    }
    compareHeaders(ctx, b, a, at);
    compareContent(ctx, answers, b, a, at);
  }
  for (const status of Object.keys(responsesA)) {
    if (status in (before.node ?? {})) continue;
    report({
      rule: 'response-status-added',
      kind: 'non-breaking',
      group,
      message: `${where} response ${status}: added`,
      at: { after: [...after.path, status] },
    });
  }
}

/** @param {import('./parameters.mjs').OperationContext} ctx */
function compareHeaders(ctx, b, a, at) {
  const { report, group, answers, resolve } = ctx;
  for (const [name, raw] of Object.entries(b.node.headers ?? {})) {
    const hB = resolve.before(raw, [...b.path, 'headers', name]);
    const key = headerKey(a.node.headers, name);
    if (key === undefined) {
      report({
        rule: 'response-header-removed',
        kind: answers === 'response' ? 'breaking' : 'non-breaking',
        group,
        message: `${at}: header ${name} removed`,
        fix: `keep header ${name}`,
        at: { before: hB.path },
      });
      continue;
    }
    const hA = resolve.after(a.node.headers[key], [...a.path, 'headers', key]);
    const loc = { before: hB.path, after: hA.path };
    if (hB.node.required && !hA.node.required) {
      report({
        rule: 'response-header-optional',
        kind: answers === 'response' ? 'breaking' : 'non-breaking',
        group,
        message: `${at}: header ${name} is no longer always sent`,
        fix: `keep ${name} required`,
        at: loc,
      });
    }
    if (!hB.node.required && hA.node.required && answers === 'request') {
      report({
        rule: 'response-header-required',
        kind: 'breaking',
        group,
        message: `${at}: header ${name} is now required`,
        fix: `keep ${name} optional`,
        at: loc,
      });
    }
    if (hB.node.description !== hA.node.description) {
      report({
        rule: 'documentation-changed',
        kind: 'documentation',
        group,
        message: `${at}: header ${name} description changed`,
        at: loc,
      });
    }
    compareSchemas(
      {
        direction: answers,
        group,
        where: `${at} header ${name}`,
        before: { value: hB.node.schema, path: [...hB.path, 'schema'] },
        after: { value: hA.node.schema, path: [...hA.path, 'schema'] },
      },
      resolve,
      report,
    );
  }
  for (const [name, raw] of Object.entries(a.node.headers ?? {})) {
    if (headerKey(b.node.headers, name) !== undefined) continue;
    const required = resolve.after(raw).node?.required === true;
    report({
      rule: 'response-header-added',
      kind: required && answers === 'request' ? 'breaking' : 'non-breaking',
      group,
      message: `${at}: header ${name} added`,
      fix: `make ${name} optional`,
      at: { after: [...a.path, 'headers', name] },
    });
  }
}
