// The breaking-change gate: compares the working description (openapi/openapi.yaml, bundled
// afresh) with the released one (openapi/baseline/openapi-<version>.yaml) and fails when
// a change would break an existing consumer, unless info.version declares a new major.
//
//   node scripts/api-breaking.mjs [--base FILE] [--head FILE]
//
// --head compares an already bundled description instead of bundling openapi/openapi.yaml.
// Why a checker of our own: docs/api-breaking.md, "Why our own checker".
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { findBreakingChanges } from './api-breaking/compare.mjs';
import { isMain, parseCommandLine, runMain } from './cli.mjs';
import { bundle, root } from './generate.mjs';

export const baselineDir = path.join(root, 'openapi/baseline');

export const usage = `
Usage: node scripts/api-breaking.mjs [--base FILE] [--head FILE]

Fails (exit 1) when the working description breaks a consumer of the released one,
unless its info.version is a new major.

  --base FILE  the released description (default: the newest openapi/baseline/openapi-*.yaml)
  --head FILE  an already bundled description to check (default: bundle openapi/openapi.yaml)
  -h, --help   this text
`;

/** The newest released baseline (highest version in its file name). */
export async function latestBaseline() {
  const files = (await readdir(baselineDir)).filter((f) => /^openapi-.+\.ya?ml$/.test(f));
  if (files.length === 0) throw new Error(`No baseline in ${baselineDir}`);
  const version = (f) =>
    f
      .replace(/^openapi-|\.ya?ml$/g, '')
      .split('.')
      .map(Number);
  files.sort((x, y) => {
    const [a, b] = [version(x), version(y)];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
    }
    return 0;
  });
  return path.join(baselineDir, /** @type {string} */ (files.at(-1)));
}

/** Reads a YAML or JSON description. */
export async function readDescription(file) {
  return parse(await readFile(file, 'utf8'));
}

/** Bundles openapi/openapi.yaml into a scratch folder and returns the parsed bundle. */
export async function bundleWorkingDescription() {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-breaking-'));
  try {
    await bundle(scratch);
    return await readDescription(path.join(scratch, 'openapi/openapi.json'));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Runs the gate and prints its verdict.
 * @returns {Promise<number>} The exit code: 1 when a breaking change is not covered by a new major.
 */
export async function main(args = process.argv.slice(2)) {
  const cli = parseCommandLine(args, {
    usage,
    options: { base: { type: 'string' }, head: { type: 'string' } },
  });
  if (!cli) return 0;
  const { base, head } = cli.values;
  const baseFile = base ? path.resolve(base) : await latestBaseline();
  const headFile = head ? path.resolve(head) : undefined;
  const before = await readDescription(baseFile);
  const after = headFile ? await readDescription(headFile) : await bundleWorkingDescription();
  const { breaking, beforeVersion, afterVersion, newMajor } = findBreakingChanges(before, after);
  const against = `${path.relative(root, baseFile)} (${beforeVersion})`;
  if (breaking.length === 0) {
    console.log(`No breaking change against ${against}.`);
    return 0;
  }
  const list = breaking.map((line) => `  - ${line}`).join('\n');
  if (newMajor) {
    console.log(
      `${breaking.length} breaking change(s) against ${against}, allowed by the new major version ${afterVersion}:\n${list}`,
    );
    return 0;
  }
  console.error(`${breaking.length} breaking change(s) against ${against}:\n${list}`);
  console.error(
    `\nMake the change compatible, or release it as a new major version (info.version ${afterVersion} → ${Number.parseInt(beforeVersion, 10) + 1}.0.0).`,
  );
  return 1;
}

if (isMain(import.meta.url)) await runMain(main);
