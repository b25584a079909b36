// The derive-everything pipeline of `npm run dev`, as one function: lint the description,
// bundle it, generate the types, render the docs. It takes its paths as arguments so tests
// run it on a temporary copy; with the defaults it writes exactly what `npm run generate`
// and `npm run docs` write (scripts/test/dev-pipeline.test.mjs checks that).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultDocsFile } from '../build-docs.mjs';
import { defaultOut, root, types } from '../generate.mjs';
import { redocly } from '../redocly.mjs';

/**
 * @typedef {object} PipelineOptions
 * @property {string} [source] The description to derive from (default openapi/openapi.yaml).
 * @property {string} [out] Where the bundle and types go (default packages/types).
 * @property {string} [docsFile] The HTML reference (default packages/types/docs/index.html).
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
  source = path.join(root, 'openapi/openapi.yaml'),
  out = defaultOut,
  docsFile = defaultDocsFile,
} = {}) {
  const timings = {};
  const stage = async (name, run) => {
    const started = performance.now();
    try {
      await run();
      return undefined;
    } catch (error) {
      return { ok: false, failedStage: name, output: String(error?.message ?? error), timings };
    } finally {
      timings[name] = Math.round(performance.now() - started);
    }
  };
  const bundleYaml = path.join(out, 'openapi/openapi.yaml');
  const bundleJson = path.join(out, 'openapi/openapi.json');

  const failure =
    (await stage('lint', async () => {
      // The root redocly.yaml is found from the working directory: its rules apply to any file.
      const { code, output } = await redocly(['lint', source], {
        quiet: true,
      });
      if (code !== 0) throw new Error(output.trim());
    })) ??
    (await stage('bundle', async () => {
      await mkdir(path.dirname(bundleYaml), { recursive: true });
      for (const [ext, file] of [
        ['yaml', bundleYaml],
        ['json', bundleJson],
      ]) {
        const { code, output } = await redocly(['bundle', source, '--ext', ext, '-o', file], {
          quiet: true,
        });
        if (code !== 0) throw new Error(output.trim());
      }
      // As scripts/generate.mjs: Redocly's JSON lacks a final newline.
      const text = await readFile(bundleJson, 'utf8');
      if (!text.endsWith('\n')) await writeFile(bundleJson, `${text}\n`);
    })) ??
    (await stage('types', () => types(out))) ??
    (await stage('docs', async () => {
      await mkdir(path.dirname(docsFile), { recursive: true });
      const { code, output } = await redocly(
        [
          'build-docs',
          bundleYaml,
          '--inlineBundle',
          '--title',
          'Pet Store API reference',
          '-o',
          docsFile,
        ],
        { quiet: true },
      );
      if (code !== 0) throw new Error(output.trim());
    }));
  return failure ?? { ok: true, failedStage: undefined, output: '', timings };
}
