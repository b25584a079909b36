// Finds the changes between two bundled OpenAPI 3.1 descriptions that break an existing
// consumer: removed operations, parameters, responses or headers; new required inputs;
// narrowed request schemas; widened response schemas; changed security.
//
// Only internal `$ref`s (`#/components/...`) are followed: the input is a bundle.
import { compareSchemas } from './schemas.mjs';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * @typedef {object} Report
 * @property {string[]} breaking One message per breaking change, with its location.
 * @property {string} beforeVersion `info.version` of the released description.
 * @property {string} afterVersion `info.version` of the working description.
 * @property {boolean} newMajor The working description declares a new major version, so
 *   breaking changes are allowed.
 */

/**
 * Compares the released description with the working one.
 *
 * @param {any} before The released (baseline) bundle, parsed.
 * @param {any} after The working bundle, parsed.
 * @returns {Report}
 * @example
 * const { breaking, newMajor } = findBreakingChanges(baseline, working);
 * if (breaking.length > 0 && !newMajor) process.exitCode = 1;
 */
export function findBreakingChanges(before, after) {
  const deref = { before: resolverFor(before), after: resolverFor(after) };
  const breaking = [];
  const schemas = (b, a, direction, where) =>
    breaking.push(...compareSchemas(b, a, direction, where, deref));

  for (const [path, itemBefore] of Object.entries(before.paths ?? {})) {
    const itemAfter = deref.after(after.paths?.[path]);
    for (const method of methods) {
      const opBefore = deref.before(itemBefore)?.[method];
      if (opBefore === undefined) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const opAfter = itemAfter?.[method];
      if (opAfter === undefined) {
        breaking.push(`${where}: operation removed`);
        continue;
      }
      if (opBefore.operationId !== opAfter.operationId) {
        breaking.push(
          `${where}: operationId changed from ${opBefore.operationId} to ${opAfter.operationId} (generated clients use it)`,
        );
      }
      const params = (item, op, d) =>
        new Map(
          [...(d(item)?.parameters ?? []), ...(op.parameters ?? [])]
            .map((p) => d(p))
            .map((p) => [`${p.in} ${p.name}`, p]),
        );
      compareParameters(
        params(itemBefore, opBefore, deref.before),
        params(itemAfter, opAfter, deref.after),
        where,
      );
      compareRequestBody(
        deref.before(opBefore.requestBody),
        deref.after(opAfter.requestBody),
        where,
      );
      compareResponses(opBefore.responses ?? {}, opAfter.responses ?? {}, where);
      const securityBefore = opBefore.security ?? before.security ?? [];
      const securityAfter = opAfter.security ?? after.security ?? [];
      if (JSON.stringify(securityBefore) !== JSON.stringify(securityAfter)) {
        breaking.push(
          `${where}: security changed from ${JSON.stringify(securityBefore)} to ${JSON.stringify(securityAfter)}`,
        );
      }
    }
  }

  const schemesBefore = before.components?.securitySchemes ?? {};
  const schemesAfter = after.components?.securitySchemes ?? {};
  for (const [name, scheme] of Object.entries(schemesBefore)) {
    const { description: _b, bearerFormat: _f, ...b } = deref.before(scheme);
    const { description: _a, bearerFormat: _g, ...a } = deref.after(schemesAfter[name]) ?? {};
    if (JSON.stringify(b) !== JSON.stringify(a)) {
      breaking.push(`security scheme ${name}: changed or removed`);
    }
  }

  const afterServers = new Set((after.servers ?? []).map((s) => s.url));
  for (const server of before.servers ?? []) {
    if (!afterServers.has(server.url)) breaking.push(`server ${server.url}: removed`);
  }

  const beforeVersion = String(before.info?.version ?? '');
  const afterVersion = String(after.info?.version ?? '');
  return {
    breaking,
    beforeVersion,
    afterVersion,
    newMajor: major(afterVersion) > major(beforeVersion),
  };

  function compareParameters(paramsBefore, paramsAfter, where) {
    for (const [key, p] of paramsBefore) {
      const q = paramsAfter.get(key);
      if (q === undefined) {
        // Unknown query parameters are rejected (400), so a client still sending it breaks.
        breaking.push(`${where}: parameter ${key} removed`);
        continue;
      }
      if (!p.required && q.required) breaking.push(`${where}: parameter ${key} is now required`);
      schemas(p.schema, q.schema, 'request', `${where} parameter ${key}`);
    }
    for (const [key, q] of paramsAfter) {
      if (!paramsBefore.has(key) && q.required) {
        breaking.push(`${where}: new required parameter ${key}`);
      }
    }
  }

  function compareRequestBody(bodyBefore, bodyAfter, where) {
    if (bodyBefore === undefined) {
      if (bodyAfter?.required) breaking.push(`${where}: a request body is now required`);
      return;
    }
    if (bodyAfter === undefined) {
      breaking.push(`${where}: request body removed`);
      return;
    }
    if (!bodyBefore.required && bodyAfter.required) {
      breaking.push(`${where}: the request body is now required`);
    }
    for (const [type, media] of Object.entries(bodyBefore.content ?? {})) {
      const mediaAfter = bodyAfter.content?.[type];
      if (mediaAfter === undefined) {
        breaking.push(`${where}: request media type ${type} no longer accepted`);
      } else {
        schemas(media.schema, mediaAfter.schema, 'request', `${where} request body`);
      }
    }
  }

  function compareResponses(responsesBefore, responsesAfter, where) {
    for (const [status, raw] of Object.entries(responsesBefore)) {
      const at = `${where} response ${status}`;
      const resBefore = deref.before(raw);
      const resAfter = deref.after(responsesAfter[status]);
      if (resAfter === undefined) {
        breaking.push(`${at}: removed`);
        continue;
      }
      for (const [name, rawHeader] of Object.entries(resBefore.headers ?? {})) {
        const hBefore = deref.before(rawHeader);
        const hAfter = deref.after(lookup(resAfter.headers, name));
        if (hAfter === undefined) {
          breaking.push(`${at}: header ${name} removed`);
          continue;
        }
        if (hBefore.required && !hAfter.required) {
          breaking.push(`${at}: header ${name} is no longer always sent`);
        }
        schemas(hBefore.schema, hAfter.schema, 'response', `${at} header ${name}`);
      }
      for (const [type, media] of Object.entries(resBefore.content ?? {})) {
        const mediaAfter = resAfter.content?.[type];
        if (mediaAfter === undefined) {
          breaking.push(`${at}: media type ${type} no longer returned`);
        } else {
          schemas(media.schema, mediaAfter.schema, 'response', `${at} body`);
        }
      }
    }
  }
}

/** Header names are case-insensitive (RFC 9110 §5.1). */
function lookup(headers, name) {
  if (headers === undefined) return undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}

/** The major number of a semantic version, or 0 when it has none. */
function major(version) {
  const match = /^v?(\d+)/.exec(version);
  return match ? Number(match[1]) : 0;
}

/** Resolves internal `$ref`s (`#/a/b`, RFC 6901 escapes) of one description, chains included. */
function resolverFor(document) {
  return function deref(value) {
    let current = value;
    for (let hops = 0; current && typeof current === 'object' && '$ref' in current; hops++) {
      const ref = current.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/') || hops > 32) {
        throw new Error(`Cannot resolve $ref ${JSON.stringify(ref)}: bundle the description first`);
      }
      current = ref
        .slice(2)
        .split('/')
        .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))
        .reduce((node, part) => node?.[part], document);
      if (current === undefined) throw new Error(`Dangling $ref ${ref}`);
    }
    return current;
  };
}
