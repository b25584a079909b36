// Renders the bundled description into one self-contained HTML reference,
// packages/types/docs/index.html, that works offline: Redoc's script is inlined
// (--inlineBundle) instead of loaded from a CDN, and telemetry is off (redocly.yaml).
//
//   node scripts/build-docs.mjs [--out FILE]
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { root } from './generate.mjs';
import { redocly } from './redocly.mjs';

export const defaultDocsFile = path.join(root, 'packages/types/docs/index.html');

/** Builds the HTML reference into `file`; throws with Redocly's output when it fails. */
export async function buildDocs(file = defaultDocsFile) {
  await mkdir(path.dirname(file), { recursive: true });
  const { code, output } = await redocly(
    [
      'build-docs',
      path.join(root, 'packages/types/openapi/openapi.yaml'),
      '--inlineBundle',
      '--title',
      'Pet Store API reference',
      '-o',
      file,
    ],
    { quiet: true },
  );
  if (code !== 0) throw new Error(`redocly build-docs failed:\n${output}`);
  return file;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const file = await buildDocs(outIndex >= 0 ? path.resolve(args[outIndex + 1] ?? '') : undefined);
  console.log(`docs written to ${path.relative(root, file)}`);
}
