// Fails when a committed generated file differs from what `npm run generate` produces
// now, i.e. when someone edited openapi/openapi.yaml and forgot to regenerate, or
// hand-edited a generated file. Regenerates into a scratch folder; touches nothing.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { changelogFile, changelogOfBundle, readChangelog } from './api-breaking/changelog-file.mjs';
import { isMain, parseCommandLine, runMain } from './cli.mjs';
import { bundle, defaultOut, generatedFiles, root, types } from './generate.mjs';
import { checkPin } from './runtime/pin.mjs';

export const usage = `
Usage: node scripts/check-generated.mjs

Regenerates the bundle and the types into a scratch folder and fails (exit 1) when a
committed file under packages/types, or openapi/CHANGELOG.md, differs, or when package.json's
runtime packages and engines disagree with the pinned Node.js (.node-version). Touches nothing.

  -h, --help  this text
`;

/** The command line: `npm run check:generated` runs this. */
export async function main(args) {
  if (!parseCommandLine(args, { usage })) return 0;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-generated-'));
  try {
    await bundle(scratch);
    await types(scratch);
    const stale = [];
    for (const file of generatedFiles) {
      const fresh = await readFile(path.join(scratch, file), 'utf8');
      const committed = await readFile(path.join(defaultOut, file), 'utf8').catch(() => null);
      if (committed !== fresh) stale.push(path.relative(root, path.join(defaultOut, file)));
    }
    const changelog = await changelogOfBundle(path.join(scratch, 'openapi', 'openapi.json'));
    if ((await readChangelog()) !== changelog) stale.push(path.relative(root, changelogFile));
    const pin = await checkPin();
    if (pin.length > 0) {
      console.error(`The runtime pin disagrees with itself:\n  ${pin.join('\n  ')}`);
      console.error('Run `node scripts/runtime/pin.mjs set <version>`, then `npm install`.');
      return 1;
    }
    if (stale.length > 0) {
      console.error(`Generated files are stale:\n  ${stale.join('\n  ')}`);
      console.error('Run `npm run generate` and commit the result.');
      return 1;
    }
    console.log(`Generated files are up to date (${generatedFiles.length + 1} checked).`);
    return 0;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await runMain(main);
