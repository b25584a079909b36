// Derives the committed artefacts from the source of truth, openapi/openapi.yaml:
//   packages/types/openapi/openapi.{yaml,json}  the bundled description (redocly bundle)
//   packages/types/src/schema.ts                TypeScript types (openapi-typescript)
//   openapi/CHANGELOG.md                        the changes since the newest baseline
//                                               (scripts/api-changelog.mjs)
// The functions take their paths as arguments: scripts/check-generated.mjs regenerates into a
// scratch folder, and the dev loop (scripts/dev/pipeline.mjs) composes lint, bundle and types.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { changelogFile, writeChangelog } from './api-breaking/changelog-file.mjs';
import { isMain, parseCommandLine, runMain, UsageError } from './cli.mjs';
import { redocly } from './redocly.mjs';
import { intoPlace, writeIntoPlace } from './write-into-place.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The description everything is derived from. */
export const defaultSource = path.join(root, 'openapi/openapi.yaml');
export const defaultOut = path.join(root, 'packages/types');
/** The house lint rules and docs options; given explicitly so no command depends on the cwd. */
export const redoclyConfig = path.join(root, 'redocly.yaml');

/** The generated files, relative to the output folder. */
export const generatedFiles = ['openapi/openapi.yaml', 'openapi/openapi.json', 'src/schema.ts'];

export const usage = `
Usage: node scripts/generate.mjs [bundle|types|all] [--source FILE] [--out DIR]

Derives the bundle (<out>/openapi/openapi.{yaml,json}) and the TypeScript types
(<out>/src/schema.ts) from the description; \`all\` also writes the changelog since the
newest baseline (openapi/CHANGELOG.md, or <out>/CHANGELOG.md with --out). Default: all.

  --source FILE  the description to bundle (default openapi/openapi.yaml)
  --out DIR      where to write (default packages/types)
  -h, --help     this text
`;

const header = `/**
 * Generated from openapi/openapi.yaml by \`npm run generate\` (openapi-typescript).
 * Do not edit: change the description, then regenerate.
 */

`;

/**
 * Lints `source` with the house rules (redocly.yaml), as `npm run lint:api` does.
 * @throws {Error} With Redocly's report when it finds any problem, warnings included.
 */
export async function lint(source = defaultSource) {
  const { code, output } = await redocly(['lint', source, '--config', redoclyConfig], {
    quiet: true,
  });
  if (code !== 0) throw new Error(output.trim());
}

/** Bundles the description `source` into <out>/openapi/openapi.{yaml,json}. */
export async function bundle(out = defaultOut, { source = defaultSource } = {}) {
  await mkdir(path.join(out, 'openapi'), { recursive: true });
  for (const ext of ['yaml', 'json']) {
    await intoPlace(path.join(out, 'openapi', `openapi.${ext}`), async (to) => {
      const { code, output } = await redocly(
        ['bundle', source, '--config', redoclyConfig, '--ext', ext, '-o', to],
        { quiet: true },
      );
      if (code !== 0) throw new Error(`redocly bundle failed:\n${output.trim()}`);
      // Redocly writes JSON without a final newline; keep files POSIX-clean and stable.
      const text = await readFile(to, 'utf8');
      if (!text.endsWith('\n')) await writeFile(to, `${text}\n`);
    });
  }
}

/** Generates <out>/src/schema.ts from the bundled JSON description in <out>. */
export async function types(out = defaultOut) {
  const source = pathToFileURL(path.join(out, 'openapi', 'openapi.json'));
  const ast = await openapiTS(source, {
    alphabetize: false,
    immutable: false,
    exportType: false,
    defaultNonNullable: true,
    propertiesRequiredByDefault: false,
  });
  await mkdir(path.join(out, 'src'), { recursive: true });
  await writeIntoPlace(path.join(out, 'src', 'schema.ts'), header + astToString(ast));
}

/** The command line: `npm run bundle` and `npm run generate` run this. */
export async function main(args) {
  const cli = parseCommandLine(args, {
    usage,
    options: { source: { type: 'string' }, out: { type: 'string' } },
    maxPositionals: 1,
  });
  if (!cli) return 0;
  const what = cli.positionals[0] ?? 'all';
  if (!['bundle', 'types', 'all'].includes(what)) {
    throw new UsageError(`Unknown target '${what}': bundle, types or all`);
  }
  const out = path.resolve(cli.values.out ?? defaultOut);
  const source = path.resolve(cli.values.source ?? defaultSource);
  if (what !== 'types') await bundle(out, { source });
  if (what !== 'bundle') await types(out);
  if (what === 'all') {
    const file = out === defaultOut ? changelogFile : path.join(out, 'CHANGELOG.md');
    await writeChangelog(path.join(out, 'openapi', 'openapi.json'), file);
  }
  console.log(`generated ${what} into ${path.relative(root, out) || '.'}`);
  return 0;
}

if (isMain(import.meta.url)) await runMain(main);
