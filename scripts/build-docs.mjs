// Renders the bundled description into one self-contained HTML reference,
// packages/types/docs/index.html, that works offline: Redoc's script is inlined
// (--inlineBundle) instead of loaded from a CDN, and telemetry is off (redocly.yaml).
//
//   node scripts/build-docs.mjs [--out FILE] [--bundle FILE]
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { isMain, parseCommandLine, runMain } from './cli.mjs';
import { defaultOut, root } from './generate.mjs';
import { redocly } from './redocly.mjs';

export const defaultDocsFile = path.join(root, 'packages/types/docs/index.html');
/** The bundle the reference is rendered from (written by `npm run generate`). */
export const defaultBundleFile = path.join(defaultOut, 'openapi/openapi.yaml');

export const usage = `
Usage: node scripts/build-docs.mjs [--out FILE] [--bundle FILE]

Renders the bundled description into one self-contained, offline HTML reference.

  --out FILE     the HTML file to write (default packages/types/docs/index.html)
  --bundle FILE  the bundle to render (default packages/types/openapi/openapi.yaml)
  -h, --help     this text
`;

/**
 * Builds the HTML reference into `file` from the bundle `bundleFile`; throws with Redocly's
 * output when it fails.
 */
export async function buildDocs(file = defaultDocsFile, { bundleFile = defaultBundleFile } = {}) {
  await mkdir(path.dirname(file), { recursive: true });
  const { code, output } = await redocly(
    ['build-docs', bundleFile, '--inlineBundle', '--title', 'Pet Store API reference', '-o', file],
    { quiet: true },
  );
  if (code !== 0) throw new Error(`redocly build-docs failed:\n${output}`);
  return file;
}

/** The command line: `npm run docs` runs this. */
export async function main(args) {
  const cli = parseCommandLine(args, {
    usage,
    options: { out: { type: 'string' }, bundle: { type: 'string' } },
  });
  if (!cli) return 0;
  const file = await buildDocs(path.resolve(cli.values.out ?? defaultDocsFile), {
    bundleFile: path.resolve(cli.values.bundle ?? defaultBundleFile),
  });
  console.log(`docs written to ${path.relative(root, file)}`);
  return 0;
}

if (isMain(import.meta.url)) await runMain(main);
