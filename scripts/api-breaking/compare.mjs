// Compares two bundled OpenAPI 3.x descriptions and classifies every change it finds:
// breaking, review (undecided: a human must look), non-breaking or documentation-only.
// Paths are paired by template shape, webhooks by name (their directions reversed: the API
// sends those requests). Only internal `$ref`s (`#/...`) are followed: the input is a bundle.
import { blocks, collector } from './findings.mjs';
import { compareItem } from './operations.mjs';
import { pairTemplates } from './paths.mjs';
import { resolverFor } from './resolve.mjs';
import { compareSchemesAndServers } from './security.mjs';

/**
 * @typedef {object} Report
 * @property {import('./findings.mjs').Finding[]} findings Every change found.
 * @property {import('./findings.mjs').Finding[]} breaking The findings that fail the gate
 *   (`breaking` and `review`).
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
 * @param {{ now?: Date }} [options] `now` decides whether a sunset has passed (default: the clock).
 * @returns {Report}
 * @example
 * const { breaking, newMajor } = findBreakingChanges(baseline, working);
 * if (breaking.length > 0 && !newMajor) process.exitCode = 1;
 */
export function findBreakingChanges(before, after, { now = new Date() } = {}) {
  const { findings, report } = collector();
  const resolve = { before: resolverFor(before), after: resolverFor(after) };
  const base = { resolve, report, now, docs: { before, after } };

  for (const [section, webhook] of [
    ['paths', false],
    ['webhooks', true],
  ]) {
    const itemsB = before[section] ?? {};
    const itemsA = after[section] ?? {};
    const { pairs, removed, added } = webhook
      ? pairByName(itemsB, itemsA)
      : pairTemplates(itemsB, itemsA);
    const label = (key) => (webhook ? `webhook ${key}` : key);
    for (const [keyB, keyA] of pairs) {
      compareItem(base, {
        label: label(keyA),
        templateBefore: webhook ? '' : keyB,
        templateAfter: webhook ? '' : keyA,
        before: resolve.before(itemsB[keyB], [section, keyB]),
        after: resolve.after(itemsA[keyA], [section, keyA]),
        webhook,
      });
    }
    for (const key of removed) {
      compareItem(base, {
        label: label(key),
        templateBefore: webhook ? '' : key,
        templateAfter: '',
        before: resolve.before(itemsB[key], [section, key]),
        after: undefined,
        webhook,
      });
    }
    for (const key of added) {
      compareItem(base, {
        label: label(key),
        templateBefore: '',
        templateAfter: webhook ? '' : key,
        before: { node: {}, path: [section, key] },
        after: resolve.after(itemsA[key], [section, key]),
        webhook,
      });
    }
  }

  compareSchemesAndServers(base, before, after);
  for (const key of ['title', 'summary', 'description', 'contact', 'license', 'termsOfService']) {
    if (JSON.stringify(before.info?.[key]) !== JSON.stringify(after.info?.[key])) {
      report({
        rule: 'documentation-changed',
        kind: 'documentation',
        group: 'API',
        message: `info.${key} changed`,
        at: { after: ['info', key] },
      });
    }
  }
  const tagsB = new Map((before.tags ?? []).map((t) => [t.name, JSON.stringify(t)]));
  (after.tags ?? []).forEach((tag, i) => {
    if (tagsB.get(tag.name) !== JSON.stringify(tag)) {
      report({
        rule: 'documentation-changed',
        kind: 'documentation',
        group: 'API',
        message: `tag ${tag.name} ${tagsB.has(tag.name) ? 'changed' : 'added'}`,
        at: { after: ['tags', i] },
      });
    }
  });

  const beforeVersion = String(before.info?.version ?? '');
  const afterVersion = String(after.info?.version ?? '');
  return {
    findings,
    breaking: findings.filter(blocks),
    beforeVersion,
    afterVersion,
    newMajor: major(afterVersion) > major(beforeVersion),
  };
}

/** Webhooks are named, not templated: pair them by name. */
function pairByName(before, after) {
  const b = Object.keys(before);
  const a = new Set(Object.keys(after));
  return {
    pairs: b.filter((k) => a.has(k)).map((k) => [k, k]),
    removed: b.filter((k) => !a.has(k)),
    added: [...a].filter((k) => !(k in before)),
  };
}

/** The major number of a semantic version, or 0 when it has none. */
function major(version) {
  const match = /^v?(\d+)/.exec(version);
  return match ? Number(match[1]) : 0;
}
