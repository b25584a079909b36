// The breaking-change gate: compares the working description (openapi/openapi.yaml, bundled
// afresh) with the released one (openapi/baseline/openapi-<version>.yaml) and fails when
// a change would break an existing consumer, unless info.version declares a new major.
//
//   node scripts/api-breaking.mjs [--base FILE] [--head FILE]
//
// --head compares an already bundled description instead of bundling openapi/openapi.yaml.
// Each finding names its rule, its place (file:line and JSON pointer) and what would make
// the change compatible. How it decides: docs/api-breaking.md.
// Why a checker of our own: docs/api-breaking.md, "Why our own checker".
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { baselineDir, latestBaseline, readDescription } from './api-breaking/baseline.mjs';
import { findBreakingChanges } from './api-breaking/compare.mjs';
import { locate } from './api-breaking/source-lines.mjs';
import { isMain, parseCommandLine, runMain } from './cli.mjs';
import { bundle, defaultSource, root } from './generate.mjs';

export { baselineDir, latestBaseline, readDescription };

export const usage = `
Usage: node scripts/api-breaking.mjs [--base FILE] [--head FILE]

Fails (exit 1) when the working description breaks a consumer of the released one,
unless its info.version is a new major.

  --base FILE  the released description (default: the newest openapi/baseline/openapi-*.yaml)
  --head FILE  an already bundled description to check (default: bundle openapi/openapi.yaml)
  -h, --help   this text
`;

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
 * Compares two descriptions, the findings located in their sources.
 *
 * @param {{ base?: string, head?: string, now?: Date }} options Files (default: the newest
 *   baseline, and openapi/openapi.yaml bundled afresh); `now` decides passed sunsets.
 * @returns {Promise<import('./api-breaking/compare.mjs').Report & { baseFile: string, headFile: string }>}
 */
export async function compareFiles({ base, head, now } = {}) {
  const baseFile = base ? path.resolve(base) : await latestBaseline();
  const headFile = head ? path.resolve(head) : defaultSource;
  const before = await readDescription(baseFile);
  const after = head ? await readDescription(headFile) : await bundleWorkingDescription();
  const report = findBreakingChanges(before, after, { now });
  // The working bundle keeps the source's layout (one file), so its pointers are the source's.
  locate(report.findings, {
    before: await readFile(baseFile, 'utf8'),
    after: await readFile(headFile, 'utf8'),
  });
  return { ...report, baseFile, headFile };
}

/**
 * One finding as the gate prints it: the change, then its rule and place, then the way out.
 * @param {import('./api-breaking/findings.mjs').Finding} finding
 * @param {{ baseFile: string, headFile: string }} files
 */
export function formatFinding(finding, { baseFile, headFile }) {
  const file = path.relative(root, finding.side === 'after' ? headFile : baseFile);
  const place = `${file}${finding.line ? `:${finding.line}` : ''} ${finding.pointer}`;
  const review = finding.kind === 'review' ? ' (review)' : '';
  const fix = finding.fix ? `\n      compatible: ${finding.fix}` : '';
  return `  - ${finding.message}\n      rule ${finding.rule}${review} at ${place}${fix}`;
}

/**
 * Runs the gate and prints its verdict.
 * @returns {Promise<number>} The exit code: 1 when a breaking change is not covered by a new major.
 */
export async function main(args = process.argv.slice(2), { now = new Date() } = {}) {
  const cli = parseCommandLine(args, {
    usage,
    options: { base: { type: 'string' }, head: { type: 'string' } },
  });
  if (!cli) return 0;
  const result = await compareFiles({ ...cli.values, now });
  const { breaking, beforeVersion, afterVersion, newMajor, findings, baseFile } = result;
  const against = `${path.relative(root, baseFile)} (${beforeVersion})`;
  for (const finding of findings.filter((f) => f.rule.endsWith('-after-sunset'))) {
    console.log(`Allowed: ${finding.message}`);
  }
  if (breaking.length === 0) {
    console.log(`No breaking change against ${against}.`);
    return 0;
  }
  const list = breaking.map((finding) => formatFinding(finding, result)).join('\n');
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
