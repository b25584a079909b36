// Security requirements, security schemes and servers. House policy (docs/api-breaking.md):
// any change of an operation's security requirement counts as breaking, even one that
// other tools call compatible (an added alternative, a removed requirement).

/**
 * @param {import('./parameters.mjs').OperationContext} ctx
 */
export function compareSecurity(ctx, before, after, where) {
  const x = JSON.stringify(before.value ?? []);
  const y = JSON.stringify(after.value ?? []);
  if (x === y) return;
  ctx.report({
    rule: 'security-changed',
    kind: 'breaking',
    group: ctx.group,
    message: `${where}: security changed from ${x} to ${y}`,
    fix: `keep the security requirement ${x}; release a change of who may call as a new major version`,
    at: { before: before.path, after: after.path },
  });
}

/** Compares `components.securitySchemes` and `servers`. */
export function compareSchemesAndServers(ctx, before, after) {
  const schemesB = before.components?.securitySchemes ?? {};
  const schemesA = after.components?.securitySchemes ?? {};
  for (const [name, raw] of Object.entries(schemesB)) {
    const { description: _b, bearerFormat: _f, ...b } = ctx.resolve.before(raw).node;
    const rawA = schemesA[name];
    const { description: _a, bearerFormat: _g, ...a } = rawA ? ctx.resolve.after(rawA).node : {};
    const path = ['components', 'securitySchemes', name];
    if (JSON.stringify(b) !== JSON.stringify(a)) {
      ctx.report({
        rule: 'security-scheme-changed',
        kind: 'breaking',
        group: 'API',
        message: `security scheme ${name}: changed or removed`,
        fix: `keep security scheme ${name} as it was`,
        at: rawA ? { after: path } : { before: path },
      });
    }
  }
  const urlsA = new Set((after.servers ?? []).map((s) => s.url));
  (before.servers ?? []).forEach((server, i) => {
    if (!urlsA.has(server.url)) {
      ctx.report({
        rule: 'server-removed',
        kind: 'breaking',
        group: 'API',
        message: `server ${server.url}: removed`,
        fix: `keep server ${server.url}`,
        at: { before: ['servers', i] },
      });
    }
  });
  const urlsB = new Set((before.servers ?? []).map((s) => s.url));
  (after.servers ?? []).forEach((server, i) => {
    if (!urlsB.has(server.url)) {
      ctx.report({
        rule: 'server-added',
        kind: 'non-breaking',
        group: 'API',
        message: `server ${server.url}: added`,
        at: { after: ['servers', i] },
      });
    }
  });
}
