// The derive-everything pipeline of `npm run dev`, composed of the functions the npm scripts
// run: lint (as `npm run lint:api`), bundle() and types() (scripts/generate.mjs, as
// `npm run generate`), buildDocs() (scripts/build-docs.mjs, as `npm run docs`). It takes its
// paths as arguments so tests run it on a temporary copy; scripts/test/dev-pipeline.test.mjs
// checks that it writes exactly what those npm scripts write.
import path from 'node:path';
import { buildDocs } from '../build-docs.mjs';
import { bundle, defaultOut, defaultSource, lint, types } from '../generate.mjs';

/**
 * @typedef {object} PipelineOptions
 * @property {string} [source] The description to derive from (default openapi/openapi.yaml).
 * @property {string} [out] Where the bundle and types go (default packages/types).
 * @property {string} [docsFile] The HTML reference (default <out>/docs/index.html).
 *
 * @typedef {object} PipelineResult
 * @property {boolean} ok Every stage succeeded.
 * @property {'lint' | 'bundle' | 'types' | 'docs' | undefined} failedStage The stage that failed.
 * @property {string} output What the failing stage said (lint problems, Redocly's error).
 * @property {Record<string, number>} timings Milliseconds per stage that ran.
 */

/**
 * Lints `source` with the house rules and, when it has no problem, bundles it, generates
 * the types and renders the docs. A description with lint problems changes no artefact:
 * the server keeps running on the last good contract while the problems are fixed.
 *
 * @param {PipelineOptions} [options]
 * @returns {Promise<PipelineResult>}
 * @example
 * const result = await rebuild();
 * if (!result.ok) console.error(result.output);
 */
export async function rebuild({
  source = defaultSource,
  out = defaultOut,
  docsFile = path.join(out, 'docs/index.html'),
} = {}) {
  /** @type {Record<string, number>} */
  const timings = {};
  const stages = /** @type {const} */ ([
    ['lint', () => lint(source)],
    ['bundle', () => bundle(out, { source })],
    ['types', () => types(out)],
    ['docs', () => buildDocs(docsFile, { bundleFile: path.join(out, 'openapi/openapi.yaml') })],
  ]);
  for (const [name, run] of stages) {
    const started = performance.now();
    try {
      await run();
    } catch (error) {
      const output = String(/** @type {Error} */ (error)?.message ?? error);
      return { ok: false, failedStage: name, output, timings };
    } finally {
      timings[name] = Math.round(performance.now() - started);
    }
  }
  return { ok: true, failedStage: undefined, output: '', timings };
}
