// The gate measured on another project's verdicts: every before/after pair of the
// breaking-change tests that @useoptic/standard-rulesets ships (MIT, see NOTICE), read from
// node_modules. The rates are reported in docs/api-breaking.md.
import { beforeAll, describe, expect, it } from 'vitest';
import { findBreakingChanges } from '../api-breaking/compare.mjs';
import { opticPairs } from './corpus/optic-pairs.mjs';

/**
 * Pairs where this gate's house policy differs from the suite's, each with the reason
 * (docs/api-breaking.md, "Policies that differ from common tools").
 */
const policies = {
  'breaking changes ruleset valid changes':
    'an optional query parameter removed: unknown query parameters are rejected (400), so a client still sending it breaks',
  'breaking changes ruleset valid response union type transition':
    'a response object that may now be a number: a client reading an object cannot read it',
};

/** @type {(import('./corpus/optic-pairs.mjs').CorpusPair & { flagged: boolean })[]} */
let results = [];

beforeAll(async () => {
  results = (await opticPairs()).map((pair) => ({
    ...pair,
    flagged: findBreakingChanges(pair.before, pair.after).breaking.length > 0,
  }));
});

describe('the gate on the pairs of @useoptic/standard-rulesets', () => {
  it('reads every pair with a verdict (45 in 1.0.9)', () => {
    expect(results).toHaveLength(45);
    expect(results.filter((r) => r.breaking)).toHaveLength(37);
  });

  it('catches every breaking change (goal: at least 98 %)', () => {
    const breaking = results.filter((r) => r.breaking);
    const caught = breaking.filter((r) => r.flagged);
    expect(caught.length / breaking.length).toBeGreaterThanOrEqual(0.98);
    expect(breaking.filter((r) => !r.flagged).map((r) => r.name)).toEqual([]);
  });

  it('raises no false alarm outside the documented policies (goal: at most 5 %)', () => {
    const compatible = results.filter((r) => !r.breaking);
    const alarms = compatible.filter((r) => r.flagged && !(r.name in policies));
    expect(alarms.length / compatible.length).toBeLessThanOrEqual(0.05);
    expect(alarms.map((r) => r.name)).toEqual([]);
  });

  it('disagrees with the suite exactly on the documented policies', () => {
    const disagreements = results.filter((r) => r.flagged !== r.breaking).map((r) => r.name);
    expect(disagreements.sort()).toEqual(Object.keys(policies).sort());
  });
});
