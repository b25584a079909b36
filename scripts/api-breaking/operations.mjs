// One operation (or webhook) compared with its counterpart: presence (removal allowed once
// a deprecation's sunset has passed), operationId, parameters, request body, responses,
// security and documentation.
import { compareRequestBodies, compareResponses } from './bodies.mjs';
import { pastSunset } from './lifecycle.mjs';
import { compareParameters, parametersOf } from './parameters.mjs';
import { compareSecurity } from './security.mjs';

export const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * @typedef {object} ItemPair Two path items (or webhooks) already paired.
 * @property {string} label `/pets/{petId}` or `webhook petAdded`.
 * @property {string} templateBefore Path template in the released description ('' for webhooks).
 * @property {string} templateAfter
 * @property {{ node: any, path: (string|number)[] }} before
 * @property {{ node: any, path: (string|number)[] } | undefined} after Undefined when removed.
 * @property {boolean} webhook The API sends these requests: directions are reversed.
 */

/**
 * Compares the operations of two path items.
 * @param {{ resolve: any, report: Function, now: Date, docs: { before: any, after: any } }} base
 * @param {ItemPair} item
 */
export function compareItem(base, item) {
  const { report } = base;
  for (const method of methods) {
    const rawB = item.before.node?.[method];
    const rawA = item.after?.node?.[method];
    if (rawB === undefined && rawA === undefined) continue;
    const group = `${method.toUpperCase()} ${item.label}`;
    if (rawB === undefined) {
      report({
        rule: item.webhook ? 'webhook-added' : 'operation-added',
        kind: 'non-breaking',
        group,
        message: `${group}: ${item.webhook ? 'webhook' : 'operation'} added`,
        at: { after: [...item.after.path, method] },
      });
      continue;
    }
    const opB = base.resolve.before(rawB, [...item.before.path, method]);
    if (rawA === undefined) {
      const sunset = pastSunset(opB.node, base.resolve.before, base.now);
      report({
        rule: sunset
          ? 'operation-removed-after-sunset'
          : item.webhook
            ? 'webhook-removed'
            : 'operation-removed',
        kind: sunset ? 'non-breaking' : 'breaking',
        group,
        message: `${group}: ${item.webhook ? 'webhook' : 'operation'} removed${sunset ? ` after its sunset (${sunset.toUTCString()})` : ''}`,
        fix: 'keep it; deprecate it with a Sunset date and remove it after that date',
        at: { before: opB.path },
      });
      continue;
    }
    const opA = base.resolve.after(rawA, [...item.after.path, method]);
    compareOperation(base, item, group, opB, opA);
  }
}

function compareOperation(base, item, group, opB, opA) {
  const { report, resolve, docs } = base;
  /** @type {import('./parameters.mjs').OperationContext} */
  const ctx = {
    group,
    calls: item.webhook ? 'response' : 'request',
    answers: item.webhook ? 'request' : 'response',
    resolve,
    report,
    now: base.now,
  };
  const at = { before: opB.path, after: opA.path };
  if (opB.node.operationId !== opA.node.operationId) {
    report({
      rule: 'operation-id-changed',
      kind: 'breaking',
      group,
      message: `${group}: operationId changed from ${opB.node.operationId} to ${opA.node.operationId} (generated clients use it)`,
      fix: `keep operationId ${opB.node.operationId}`,
      at,
    });
  }
  if (!opB.node.deprecated && opA.node.deprecated) {
    report({
      rule: 'operation-deprecated',
      kind: 'non-breaking',
      group,
      message: `${group}: deprecated`,
      at,
    });
  }
  for (const key of ['summary', 'description', 'tags', 'externalDocs']) {
    if (JSON.stringify(opB.node[key]) !== JSON.stringify(opA.node[key])) {
      report({
        rule: 'documentation-changed',
        kind: 'documentation',
        group,
        message: `${group}: ${key} changed`,
        at,
      });
    }
  }
  compareParameters(
    ctx,
    parametersOf(item.before, opB, item.templateBefore, resolve.before),
    parametersOf(item.after, opA, item.templateAfter, resolve.after),
    group,
  );
  compareRequestBodies(
    ctx,
    resolve.before(opB.node.requestBody, [...opB.path, 'requestBody']),
    resolve.after(opA.node.requestBody, [...opA.path, 'requestBody']),
    group,
  );
  compareResponses(
    ctx,
    { node: opB.node.responses, path: [...opB.path, 'responses'] },
    { node: opA.node.responses, path: [...opA.path, 'responses'] },
    group,
  );
  if (!item.webhook) {
    const securityOf = (op, doc) =>
      op.node.security !== undefined
        ? { value: op.node.security, path: [...op.path, 'security'] }
        : { value: doc.security, path: ['security'] };
    compareSecurity(ctx, securityOf(opB, docs.before), securityOf(opA, docs.after), group);
  }
}
