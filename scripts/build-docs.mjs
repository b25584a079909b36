// Renders the bundled description into one self-contained HTML reference,
// packages/types/docs/index.html, that works offline: Redoc's script is inlined
// (--inlineBundle) instead of loaded from a CDN, telemetry is off (redocly.yaml), the
// "API docs by Redocly" badge draws its logo inline instead of loading it from
// cdn.redoc.ly (Redoc has no option to hide it), and code blocks in descriptions wrap
// instead of running past the column (Redoc has no option for that either). A "Changes"
// page, the changelog since the newest baseline (scripts/api-changelog.mjs), is added as a
// tag the way Getting started is one (`x-traitTag`), to a scratch copy of the bundle: the
// committed bundle stays the contract.
//
//   node scripts/build-docs.mjs [--out FILE] [--bundle FILE]
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { changelogOfBundle } from './api-breaking/changelog-file.mjs';
import { isMain, parseCommandLine, runMain } from './cli.mjs';
import { defaultOut, root } from './generate.mjs';
import { redocly } from './redocly.mjs';
import { intoPlace } from './write-into-place.mjs';

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
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-docs-'));
  try {
    const withChanges = path.join(scratch, 'openapi.yaml');
    await writeFile(withChanges, await withChangesPage(bundleFile));
    return await intoPlace(file, async (to) => {
      const { code, output } = await redocly(
        [
          'build-docs',
          withChanges,
          '--inlineBundle',
          '--title',
          'Pet Store API reference',
          '-o',
          to,
        ],
        { quiet: true },
      );
      if (code !== 0) throw new Error(`redocly build-docs failed:\n${output}`);
      await writeFile(to, offline(await readFile(to, 'utf8')));
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The bundle's text with a last tag, Changes, whose page is the changelog. */
async function withChangesPage(bundleFile) {
  const description = parse(await readFile(bundleFile, 'utf8'));
  const changes = await changelogOfBundle(bundleFile, { heading: 2, source: false });
  description.tags = [
    ...(description.tags ?? []),
    { name: 'Changes', description: changes, 'x-traitTag': true },
  ];
  return stringify(description, { lineWidth: 0 });
}

/** Redoc's badge logos (expanded and collapsed sidebar): the page's only outside loads. */
const badgeLogos = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': svg(64, 'Redocly'),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': svg(14, 'R'),
};

/** A data: URI of a small wordmark, drawn in Redocly's colour, that loads nothing. */
function svg(width, text) {
  const image =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" role="img">` +
    `<text x="0" y="12" font-family="sans-serif" font-size="12" font-weight="700" ` +
    `fill="#1f7ff0">${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(image)}`;
}

/** Code blocks of descriptions (Getting started) wrap their long lines; Redoc's own
 * stylesheet, injected after this one, would win a tie. */
const css = `<style>
  [data-component-name='Markdown/Markdown'] pre {
    white-space: pre-wrap !important;
    overflow-wrap: anywhere !important;
  }
</style>`;

/** The page with the badge drawn inline and the CSS added; throws if Redoc changed. */
function offline(html) {
  let page = html;
  for (const [url, inline] of Object.entries(badgeLogos)) page = page.replaceAll(url, inline);
  const left = /https:\/\/cdn\.redoc\.ly\/redoc\/[^"'`\s)]+/.exec(page);
  if (left) throw new Error(`build-docs: the badge would still load ${left[0]}`);
  if (!page.includes('</head>')) throw new Error('build-docs: no </head> to add the CSS to');
  return page.replace('</head>', `${css}\n</head>`);
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
