// `npm run api:changelog`, openapi/CHANGELOG.md and the docs' Changes page.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { changelogOfBundle, readChangelog } from '../api-breaking/changelog-file.mjs';
import { buildChangelog, renderChangelog } from '../api-breaking/changelog.mjs';
import { findBreakingChanges } from '../api-breaking/compare.mjs';
import { latestBaseline, readDescription } from '../api-breaking.mjs';
import { main } from '../api-changelog.mjs';
import { buildDocs, defaultBundleFile } from '../build-docs.mjs';
import { defaultOut } from '../generate.mjs';

/** The committed bundle of the working description (kept fresh by check:generated). */
const bundleJson = path.join(defaultOut, 'openapi/openapi.json');
let scratch = '';
/** @type {import('../api-breaking/changelog.mjs').Changelog} */
let working;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-changelog-test-'));
  const report = findBreakingChanges(
    await readDescription(await latestBaseline()),
    await readDescription(bundleJson),
  );
  working = buildChangelog(report);
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** The entries of one operation, as `kind: text`. */
const entriesOf = (changelog, group) =>
  (changelog.groups.find((g) => g.group === group)?.entries ?? []).map(
    (e) => `${e.kind}: ${e.text}`,
  );

describe('the changelog from 1.0.0 to the working description', () => {
  it('goes from 1.0.0 to 1.1.0 and breaks nothing', () => {
    expect(working).toMatchObject({ from: '1.0.0', to: '1.1.0' });
    expect(working.counts).toMatchObject({ breaking: 0, review: 0 });
  });

  it('lists the Idempotency-Key header of creates', () => {
    expect(entriesOf(working, 'POST /pets')).toContain(
      'non-breaking: new optional parameter header Idempotency-Key',
    );
  });

  it('lists the RateLimit fields on every response', () => {
    for (const group of ['GET /pets', 'POST /pets', 'GET /pets/{petId}']) {
      const entries = entriesOf(working, group);
      for (const header of ['RateLimit', 'RateLimit-Policy']) {
        expect(
          entries.some((e) =>
            new RegExp(`^non-breaking: responses .*: header ${header} added$`).test(e),
          ),
        ).toBe(true);
      }
    }
  });

  it('lists conditional GETs: If-None-Match, 304 and ETag', () => {
    for (const group of ['GET /pets', 'GET /pets/{petId}']) {
      expect(entriesOf(working, group)).toEqual(
        expect.arrayContaining([
          'non-breaking: new optional parameter header If-None-Match',
          'non-breaking: responses 304, 503: added',
          'non-breaking: response 200: header ETag added',
        ]),
      );
    }
  });

  it('is committed as openapi/CHANGELOG.md, as generated', async () => {
    const committed = await readChangelog();
    expect(committed).toBe(await changelogOfBundle(bundleJson));
    expect(committed).toContain(
      '## `POST /pets`\n\nNon-breaking:\n\n- new optional parameter header Idempotency-Key',
    );
  });
});

describe('renderChangelog', () => {
  it('groups by operation, breaking first, documentation last', async () => {
    const baseline = await readDescription(await latestBaseline());
    const head = structuredClone(baseline);
    delete head.paths['/pets'].post;
    head.paths['/pets'].get.summary = 'List the animals';
    head.paths['/pets'].get.parameters.push({
      name: 'name',
      in: 'query',
      schema: { type: 'string' },
    });
    const markdown = renderChangelog(buildChangelog(findBreakingChanges(baseline, head)));
    expect(markdown).toBe(
      [
        '# Changes from 1.0.0 to 1.0.0',
        '',
        '1 breaking, 0 to review, 1 non-breaking, 1 documentation only.',
        '',
        '## `GET /pets`',
        '',
        'Non-breaking:',
        '',
        '- new optional parameter query name',
        '',
        'Documentation only:',
        '',
        '- summary changed',
        '',
        '## `POST /pets`',
        '',
        'Breaking:',
        '',
        '- operation removed',
        '',
      ].join('\n'),
    );
  });
});

describe('npm run api:changelog', () => {
  it('prints JSON with --json: each change with its kind, rule and pointers', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await main(['--json', '--head', bundleJson])).toBe(0);
      const printed = JSON.parse(log.mock.calls[0]?.[0]);
      const post = printed.groups.find((g) => g.group === 'POST /pets');
      expect(post.entries).toContainEqual({
        kind: 'non-breaking',
        rule: 'parameter-added',
        text: 'new optional parameter header Idempotency-Key',
        pointers: ['#/components/parameters/IdempotencyKey'],
      });
    } finally {
      log.mockRestore();
    }
  });

  it('prints Markdown for any two descriptions', async () => {
    const base = path.join(scratch, 'base.json');
    const head = path.join(scratch, 'head.json');
    const doc = await readDescription(await latestBaseline());
    await writeFile(base, JSON.stringify(doc));
    doc.info.version = '1.0.1';
    doc.paths['/pets'].get.description = 'Lists animals.';
    await writeFile(head, JSON.stringify(doc));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await main(['--base', base, '--head', head])).toBe(0);
      expect(log.mock.calls[0]?.[0]).toContain('# Changes from 1.0.0 to 1.0.1');
      expect(log.mock.calls[0]?.[0]).toContain(
        '## `GET /pets`\n\nDocumentation only:\n\n- description changed',
      );
    } finally {
      log.mockRestore();
    }
  });
});

describe('the rendered docs', () => {
  it('have a Changes page built from the changelog', async () => {
    const file = await buildDocs(path.join(scratch, 'docs/index.html'), {
      bundleFile: defaultBundleFile,
    });
    const html = await readFile(file, 'utf8');
    // The menu entry, rendered on the server, and the page's text in the embedded description.
    expect(html).toContain('data-text="Changes"');
    const definition = JSON.parse(
      /const __redoc_definition = (\{.*?\});\n/s.exec(html)?.[1] ?? 'null',
    );
    const changes = definition.tags.find((t) => t.name === 'Changes');
    expect(changes['x-traitTag']).toBe(true);
    expect(changes.description).toContain('## Changes from 1.0.0 to 1.1.0');
    expect(changes.description).toContain('- new optional parameter header Idempotency-Key');
  }, 60_000);
});
