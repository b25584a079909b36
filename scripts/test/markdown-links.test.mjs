import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../generate.mjs';
import { brokenLinks } from './markdown-links.mjs';
import { projectFiles } from './project-copy.mjs';

describe('every Markdown link of the repository', () => {
  it('resolves to a file the repository holds, and to a heading of it', async () => {
    const files = projectFiles();
    const markdown = files.filter((file) => file.endsWith('.md'));
    expect(markdown).toContain('README.md');
    expect(await brokenLinks({ root, files, markdown })).toEqual([]);
  });
});

describe('brokenLinks', () => {
  let fixture = '';
  /** A small repository: a target document with headings, a folder, an image. */
  const held = {
    'docs/guide.md': [
      '# Guide',
      '## The `openapi/` folder',
      '## Rate limits & bans',
      '## Setup',
      '## Setup',
      '<a name="custom-anchor"></a>',
    ].join('\n\n'),
    'docs/img/shot.png': 'png',
    'scripts/dev.mjs': '// code',
    'README.md': '# Readme\n\n## Quick start\n',
  };

  beforeAll(async () => {
    fixture = await mkdtemp(path.join(os.tmpdir(), 'petstore-links-'));
    for (const [file, text] of Object.entries(held)) {
      await mkdir(path.dirname(path.join(fixture, file)), { recursive: true });
      await writeFile(path.join(fixture, file), text);
    }
  });
  afterAll(() => rm(fixture, { recursive: true, force: true }));

  /** The broken links of a page `docs/page.md` with `text`. */
  async function check(text) {
    await writeFile(path.join(fixture, 'docs/page.md'), text);
    const files = [...Object.keys(held), 'docs/page.md'];
    return brokenLinks({ root: fixture, files, markdown: ['docs/page.md'] });
  }

  it.each([
    ['an inline link to a sibling', '[g](guide.md)'],
    ['a link up to the root', '[r](../README.md#quick-start)'],
    ['a root-relative link', '[r](/scripts/dev.mjs)'],
    ['a folder', '[s](../scripts/) and [i](img)'],
    ['a heading with code in it', '[f](guide.md#the-openapi-folder)'],
    ['a heading with punctuation', '[r](guide.md#rate-limits--bans)'],
    ['a repeated heading', '[s](guide.md#setup-1)'],
    ['an HTML anchor', '[c](guide.md#custom-anchor)'],
    ['an anchor of the page itself', '# Top\n\n[t](#top)'],
    ['an image', '![shot](img/shot.png)'],
    ['a reference-style link', 'See [the guide][g].\n\n[g]: guide.md#guide'],
    ['an external link, not fetched', '[x](https://example.invalid/nowhere) <mailto:a@b.c>'],
    ['a link in code, which is not a link', '`[x](missing.md)`\n\n    [y](missing.md)'],
  ])('accepts %s', async (_name, text) => {
    expect(await check(text)).toEqual([]);
  });

  it.each([
    ['a missing file', 'Intro.\n\n[m](missing.md)', 'docs/page.md:3: missing.md: no such file'],
    ['a missing image', '![s](img/none.png)', 'docs/page.md:1: img/none.png: no such file'],
    [
      'a missing heading',
      '[g](guide.md#nope)',
      'docs/page.md:1: guide.md#nope: no heading #nope in docs/guide.md',
    ],
    ['a missing anchor of the page itself', '# Top\n\n[b](#bottom)', 'docs/page.md:3: #bottom'],
    [
      'a reference-style link to a missing file, on the line that uses it',
      'One,\ntwo, [here][r].\n\n[r]: ../gone.md',
      'docs/page.md:2: ../gone.md: no such file',
    ],
    ['a link out of the repository', '[o](../../outside.md)', 'points outside the repository'],
    ['an HTML image', '<img src="img/none.png" alt="x">', 'docs/page.md:1: img/none.png'],
    ['a link in a table', '| a |\n| - |\n| [m](missing.md) |', 'docs/page.md:3: missing.md'],
  ])('reports %s with its file and line', async (_name, text, message) => {
    const broken = await check(text);
    expect(broken).toHaveLength(1);
    expect(broken[0]).toContain(message);
  });
});
