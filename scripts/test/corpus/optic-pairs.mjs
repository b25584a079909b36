// Paired descriptions with verdicts from another project's test suite: the breaking-change
// tests of Optic's standard rulesets, as the npm package @useoptic/standard-rulesets ships
// them (src/breaking-changes/__tests__, MIT, see NOTICE). Read from node_modules at test
// time; nothing of them is copied into this repository.
//
// Each test builds a `beforeJson` and an `afterJson`, runs Optic's breaking-change rules
// through `TestHelpers.runRulesWithInputs` and asserts whether some rule failed. The tests
// run here with stand-ins for Jest and for Optic's rule runner that only record the pair;
// the verdict is read from the test's own assertion (it holds only when a rule failed, or
// only when none did), else from its committed Jest snapshot (a result with
// `"passed": false` means breaking).
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import vm from 'node:vm';
import ts from 'typescript';

const require = createRequire(import.meta.url);
export const packageName = '@useoptic/standard-rulesets';
const packageDir = path.dirname(require.resolve(`${packageName}/package.json`));
const testsDir = path.join(packageDir, 'src/breaking-changes/__tests__');

/**
 * @typedef {object} CorpusPair
 * @property {string} name The test's full name, as Jest would print it.
 * @property {string} file The test file, relative to the package.
 * @property {any} before
 * @property {any} after
 * @property {boolean} breaking The suite's verdict.
 */

/** Jest's `%p` (pretty-format) for the strings these tables use. */
const pretty = (value) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/** The test cases a transpiled Jest file declares. */
function declaredTests(code, modules) {
  const tests = [];
  const describes = [];
  const describe = (name, body) => {
    describes.push(name);
    body();
    describes.pop();
  };
  const test = (name, fn) => tests.push({ name: [...describes, name].join(' '), fn, args: [] });
  test.each = (table) => (name, fn) => {
    for (const row of table) {
      const args = Array.isArray(row) ? row : [row];
      let i = 0;
      const title = name.replace(/%[ps]/g, () => pretty(args[i++]));
      tests.push({ name: [...describes, title].join(' '), fn, args });
    }
  };
  const jest = { describe, test, it: test, expect };
  const context = {
    module: { exports: {} },
    require: (id) => (id === '@jest/globals' ? jest : modules(id)),
  };
  context.exports = context.module.exports;
  vm.runInNewContext(code, context, { timeout: 5000 });
  return tests;
}

/** An `expect` that throws on a failed toBe/toEqual and ignores snapshots. */
function expect(actual) {
  const fail = (expected) => {
    throw new Error(`expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  };
  return {
    toBe: (expected) => (Object.is(actual, expected) ? undefined : fail(expected)),
    toEqual: (expected) => (isDeepStrictEqual(actual, expected) ? undefined : fail(expected)),
    toMatchSnapshot: () => undefined,
    toBeInstanceOf: () => undefined,
  };
}

/**
 * Every before/after pair of the package's breaking-change tests, with its verdict.
 * @returns {Promise<CorpusPair[]>}
 */
export async function opticPairs() {
  const { TestHelpers } = require('@useoptic/rulesets-base');
  const files = (await readdir(testsDir)).filter((f) => f.endsWith('.test.ts')).sort();
  /** @type {CorpusPair[]} */
  const pairs = [];
  for (const file of files) {
    const source = await readFile(path.join(testsDir, file), 'utf8');
    const { outputText: code } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    });
    const snapshot = await snapshotsOf(path.join(testsDir, '__snapshots__', `${file}.snap`));
    // Declared once to learn the names; each run below re-evaluates the file so that the
    // test bodies see that run's stand-ins.
    const declared = declaredTestsWith(code, [], TestHelpers.createEmptySpec, () => {});
    for (const [index, { name }] of declared.entries()) {
      const runs = [];
      for (const results of [[{ passed: false }], [{ passed: true }]]) {
        let captured;
        const tests = declaredTestsWith(code, results, TestHelpers.createEmptySpec, (r) => {
          captured = r;
        });
        runs.push({ held: await tests[index].run(), pair: captured });
      }
      const [failing, passing] = runs;
      const pair = failing.pair ?? passing.pair;
      // Tests of the ruleset's configuration compare no pair; tests that assert only how
      // many results an excluded operation gives have no verdict to read.
      if (!pair) continue;
      let breaking;
      if (failing.held !== passing.held) breaking = failing.held;
      else if (snapshot.has(`${name} 1`))
        breaking = snapshot.get(`${name} 1`).includes('"passed": false');
      else continue;
      pairs.push({ name, file, before: pair.before, after: pair.after, breaking });
    }
  }
  return pairs;
}

/** The file's tests, each runnable against rule results `results`, reporting its pair. */
function declaredTestsWith(code, results, createEmptySpec, onPair) {
  class BreakingChangesRuleset {
    constructor(options) {
      this.options = options;
    }

    static async fromOpticConfig(config) {
      return new BreakingChangesRuleset(config);
    }
  }
  const helpers = {
    createEmptySpec,
    runRulesWithInputs: async (rules, before, after) => {
      onPair({ before: structuredClone(before), after: structuredClone(after), rules });
      return structuredClone(results);
    },
  };
  const modules = (id) => {
    if (id === '@useoptic/rulesets-base') return { TestHelpers: helpers };
    if (id === '../index') return { BreakingChangesRuleset };
    if (id === '@useoptic/openapi-utilities') return {};
    throw new Error(`unexpected import ${id}`);
  };
  return declaredTests(code, modules).map((test) => ({
    name: test.name,
    run: async () => {
      try {
        await test.fn(...test.args);
        return true;
      } catch {
        return false;
      }
    },
  }));
}

/** Jest snapshot files are CommonJS assigning template strings to `exports[name]`. */
async function snapshotsOf(file) {
  const text = await readFile(file, 'utf8').catch(() => '');
  const exports = {};
  vm.runInNewContext(text, { exports });
  return new Map(Object.entries(exports));
}
