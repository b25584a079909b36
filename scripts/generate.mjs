// Derives the committed artefacts from the source of truth, openapi/openapi.yaml:
//   packages/types/openapi/openapi.{yaml,json}  the bundled description (redocly bundle)
//   packages/types/src/schema.ts                TypeScript types (openapi-typescript)
//
//   node scripts/generate.mjs [bundle|types|all] [--out DIR]
//
// --out writes into DIR instead of packages/types (scripts/check-generated.mjs uses it
// to regenerate into a scratch folder and compare).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { redocly } from './redocly.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const defaultOut = path.join(root, 'packages/types');

/** The generated files, relative to the output folder. */
export const generatedFiles = ['openapi/openapi.yaml', 'openapi/openapi.json', 'src/schema.ts'];

const header = `/**
 * Generated from openapi/openapi.yaml by \`npm run generate\` (openapi-typescript).
 * Do not edit: change the description, then regenerate.
 */

`;

/** Bundles openapi/openapi.yaml into <out>/openapi/openapi.{yaml,json}. */
export async function bundle(out = defaultOut) {
  await mkdir(path.join(out, 'openapi'), { recursive: true });
  for (const ext of ['yaml', 'json']) {
    const target = path.join(out, 'openapi', `openapi.${ext}`);
    const { code, output } = await redocly(['bundle', 'petstore@v1', '--ext', ext, '-o', target], {
      quiet: true,
    });
    if (code !== 0) throw new Error(`redocly bundle failed:\n${output}`);
  }
  // Redocly writes JSON without a final newline; keep files POSIX-clean and stable.
  const json = path.join(out, 'openapi', 'openapi.json');
  const text = await readFile(json, 'utf8');
  if (!text.endsWith('\n')) await writeFile(json, `${text}\n`);
}

/** Generates <out>/src/schema.ts from the bundled JSON description in <out>. */
export async function types(out = defaultOut) {
  const source = new URL(`file://${path.join(out, 'openapi', 'openapi.json')}`);
  const ast = await openapiTS(source, {
    alphabetize: false,
    immutable: false,
    exportType: false,
    defaultNonNullable: true,
    propertiesRequiredByDefault: false,
  });
  await mkdir(path.join(out, 'src'), { recursive: true });
  await writeFile(path.join(out, 'src', 'schema.ts'), header + astToString(ast));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const out = outIndex >= 0 ? path.resolve(args[outIndex + 1] ?? '') : defaultOut;
  const what = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--out') ?? 'all';
  if (what === 'bundle' || what === 'all') await bundle(out);
  if (what === 'types' || what === 'all') await types(out);
  console.log(`generated ${what} into ${path.relative(root, out) || '.'}`);
}
