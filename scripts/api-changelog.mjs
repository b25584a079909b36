// The changelog between two descriptions: every change, classified breaking, to review,
// non-breaking or documentation-only, grouped by operation.
//
//   node scripts/api-changelog.mjs [--base FILE] [--head FILE] [--json]
//
// `npm run generate` writes it to openapi/CHANGELOG.md (newest baseline → working
// description) and the rendered docs show it as their Changes page.
import { buildChangelog, renderChangelog } from './api-breaking/changelog.mjs';
import { sourceLine } from './api-breaking/changelog-file.mjs';
import { compareFiles } from './api-breaking.mjs';
import { isMain, parseCommandLine, runMain } from './cli.mjs';

export const usage = `
Usage: node scripts/api-changelog.mjs [--base FILE] [--head FILE] [--json]

Prints every change between two descriptions, classified breaking, to review,
non-breaking or documentation-only and grouped by operation, as Markdown.

  --base FILE  the older description (default: the newest openapi/baseline/openapi-*.yaml)
  --head FILE  the newer, bundled description (default: bundle openapi/openapi.yaml)
  --json       print the changelog as JSON (with each change's rule and JSON pointers)
  -h, --help   this text
`;

/** The command line: `npm run api:changelog` runs this. */
export async function main(args = process.argv.slice(2)) {
  const cli = parseCommandLine(args, {
    usage,
    options: { base: { type: 'string' }, head: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (!cli) return 0;
  const result = await compareFiles({ base: cli.values.base, head: cli.values.head });
  const changelog = buildChangelog(result);
  if (cli.values.json) {
    console.log(JSON.stringify(changelog, null, 2));
  } else {
    console.log(
      renderChangelog(changelog, {
        source: sourceLine(result.baseFile, result.headFile),
      }).trimEnd(),
    );
  }
  return 0;
}

if (isMain(import.meta.url)) await runMain(main);
