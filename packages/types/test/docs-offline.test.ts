/**
 * The built reference, opened straight from disk (file://) in real headless Chromium (the
 * system's, no browser download), as someone reads the artefact of `npm run docs` offline:
 * any request to another origin fails the test, the Getting started code blocks must show
 * their whole lines, and a screenshot is saved for a human to look at.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the build script is plain JavaScript without declarations
import { buildDocs } from '../../../scripts/build-docs.mjs';
import { description } from './description.js';
import { chromiumLaunchOptions } from '../../../scripts/chromium.mjs';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** Screenshots land here (gitignored). */
const artefacts = path.join(repoRoot, 'test-results');

/** The step headings of the Getting started tag, as the description writes them. */
const steps: string[] = [
  ...(description.tags[0].description as string).matchAll(/^### (\d+\. .+)$/gm),
].map((match) => match[1] ?? '');

let scratch: string;
let context: BrowserContext;
let page: Page;
/** Every request the page made that left the file (it is aborted as well). */
const outside: string[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-docs-offline-'));
  // Built here, as `npm run docs` builds it, so a broken build fails this suite.
  const file: string = await buildDocs(path.join(scratch, 'index.html'));
  context = await chromium.launchPersistentContext(
    path.join(scratch, 'profile'),
    chromiumLaunchOptions({ viewport: { width: 1280, height: 900 } }),
  );
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) await route.continue();
    else {
      outside.push(url);
      await route.abort('blockedbyclient');
    }
  });
  page = await context.newPage();
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.getByRole('heading', { name: 'Pet Store API (1.1.0)' }).waitFor({ timeout: 30_000 });
}, 90_000);

afterAll(async () => {
  await context?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the built reference, offline in Chromium', { timeout: 60_000 }, () => {
  it('shows every Getting started step with whole, wrapped code lines', async () => {
    await page
      .getByText('Getting started', { exact: true })
      .filter({ visible: true })
      .first()
      .click();
    for (const step of steps) {
      const heading = page.getByRole('heading', { name: step });
      await heading.waitFor({ timeout: 10_000 });
      // Redoc renders a long page as the reader scrolls down to it.
      await heading.scrollIntoViewIfNeeded();
    }
    const blocks = await page
      .locator('[data-section-id^="/getting-started"] pre')
      .evaluateAll((pres) =>
        pres.map((pre) => ({
          start: (pre.textContent ?? '').slice(0, 30),
          overflow: pre.scrollWidth - pre.clientWidth,
          whiteSpace: getComputedStyle(pre).whiteSpace,
        })),
      );
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    // Nothing runs past the right edge of its block: a long line wraps.
    expect(blocks.filter((b) => b.overflow > 0)).toEqual([]);
    expect(new Set(blocks.map((b) => b.whiteSpace))).toEqual(new Set(['pre-wrap']));
    await page.getByRole('heading', { name: steps[5] ?? '' }).scrollIntoViewIfNeeded();
    await mkdir(artefacts, { recursive: true });
    await page.screenshot({ path: path.join(artefacts, 'docs-offline-getting-started.png') });
  });

  it('draws the "API docs by Redocly" badge from the file itself', async () => {
    const logo = page.getByRole('img', { name: 'redocly logo' });
    await logo.waitFor();
    const { src, width } = await logo.evaluate((img: HTMLImageElement) => ({
      src: img.src,
      width: img.naturalWidth,
    }));
    expect(src).toMatch(/^data:image\/svg\+xml,/);
    expect(width).toBeGreaterThan(0);
  });

  it('requests nothing from any other origin', () => {
    expect(outside).toEqual([]);
  });
});
