/**
 * The rendered reference as a reader sees it: real headless Chromium (the system's, no
 * browser download) loads /docs from a real server with every request that leaves the
 * server's origin blocked, so the page is proven to work offline.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type TestServer, startTestServer } from '@petstore/server/testing';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDir } from '../support/server-process.js';
import { chromiumLaunchOptions } from '../../../../scripts/chromium.mjs';

const repoRoot = path.resolve(serverDir, '../..');
/** Screenshots land here (gitignored) for a human to look at. */
const artefacts = path.join(repoRoot, 'test-results');

let server: TestServer;
let profile: string;
let context: BrowserContext;
let page: Page;
/** Every request the page made, and the ones refused for leaving the server's origin. */
const requested: string[] = [];
const blocked: string[] = [];
/** Loads the page's Content-Security-Policy refused before any request was made. */
const refusedByCsp: string[] = [];

beforeAll(async () => {
  // Build the docs the way CI and `npm run docs` do, so a broken build fails this suite.
  await promisify(execFile)(process.execPath, ['scripts/build-docs.mjs'], { cwd: repoRoot });
  server = await startTestServer();
  profile = await mkdtemp(path.join(tmpdir(), 'petstore-chromium-'));
  context = await chromium.launchPersistentContext(
    profile,
    chromiumLaunchOptions({
      viewport: { width: 1280, height: 900 },
    }),
  );
  const origin = new URL(server.url).origin;
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requested.push(url);
    if (new URL(url).origin === origin) await route.continue();
    else {
      blocked.push(url);
      await route.abort('blockedbyclient');
    }
  });
  page = await context.newPage();
  page.on('console', (message) => {
    const refused =
      /^Loading the \w+ '([^']+)' violates the following Content Security Policy/.exec(
        message.text(),
      );
    if (refused?.[1]) refusedByCsp.push(refused[1]);
  });
  const response = await page.goto(`${server.url}/docs`, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  // Redoc renders on the client: the overview page is ready once its title is.
  await page.getByRole('heading', { name: 'Pet Store API (1.1.0)' }).waitFor({ timeout: 30_000 });
  await mkdir(artefacts, { recursive: true });
  await page.screenshot({ path: path.join(artefacts, 'docs.png') });
}, 90_000);

afterAll(async () => {
  await context?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** Clicks an entry of the navigation sidebar, as a reader does. */
async function open(entry: string): Promise<void> {
  await page.getByText(entry, { exact: true }).filter({ visible: true }).first().click();
}

/** Waits until Redoc shows the page titled `title` (it renders each page on navigation). */
async function pageTitled(title: string): Promise<void> {
  await page.getByRole('heading', { name: title }).first().waitFor({ timeout: 20_000 });
}

describe('the reference at /docs in Chromium, offline', { timeout: 30_000 }, () => {
  it('shows the rate-limit plans table on the overview page', async () => {
    const table = page.locator('table', { hasText: 'Requests per minute' });
    await expect(table.count()).resolves.toBe(1);
    const rows = await table
      .locator('tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent?.trim())),
      );
    expect(rows).toEqual([
      ['Plan', 'Requests per minute', 'Requests per day'],
      ['Free', '60', '1000'],
      ['Pro', '300', '10000'],
      ['Business', '1000', '100000'],
      ['Enterprise', 'custom', 'custom'],
    ]);
  });

  it('lists the three operations with their methods and paths, and opens each', async () => {
    await open('Pets');
    await pageTitled('Pets');
    const operations = page.getByText('Operations', { exact: true }).locator('xpath=..');
    expect((await operations.innerText()).replace(/\s+/g, ' ').trim()).toBe(
      'Operations GET /pets POST /pets GET /pets/{petId} Deprecated',
    );
    for (const summary of ['List animals', 'Add an animal', 'Get an animal']) {
      await open(summary);
      await pageTitled(summary);
    }
  });

  it('shows the bearer scheme of an operation', async () => {
    await open('List animals');
    await pageTitled('List animals');
    await page.getByText('View security details').first().click();
    const details = page
      .locator('div', { hasText: 'HTTP Authorization Scheme' })
      .filter({ hasText: 'bearerAuth' })
      .last();
    await details.waitFor();
    const text = (await details.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('bearerAuth');
    expect(text).toContain('Authorization: Bearer <API_KEY>');
    expect(text).toContain('Bearer Format API key (psk_…)');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });
  });

  it('marks getPet deprecated and names its sunset and replacement', async () => {
    await open('Get an animal');
    await pageTitled('Get an animal');
    await page.getByText('Deprecated', { exact: true }).filter({ visible: true }).first().waitFor();
    const text = await page.locator('body').innerText();
    expect(text).toContain('Deprecated: this operation will be removed on 5 December 2030.');
    expect(text).toContain('Use GET /pets with the status filter instead.');
    await page.screenshot({ path: path.join(artefacts, 'docs-get-pet.png') });
  });

  it('renders the Getting started page, step by step', async () => {
    await open('Getting started');
    await pageTitled('Getting started');
    for (const step of [
      '1. Get an API key',
      '2. Your first call, with curl',
      '3. The same with the TypeScript client',
      '4. Read the rate-limit headers',
      '5. Handle 429 Too Many Requests',
      '6. Retrying a create safely',
      '7. Move off the deprecated getPet',
    ]) {
      // waitFor is strict: it fails unless exactly one heading has this name.
      const heading = page.getByRole('heading', { name: step });
      await heading.waitFor({ timeout: 10_000 });
      // Redoc renders a long page as the reader scrolls down to it.
      await heading.scrollIntoViewIfNeeded();
    }
    await page.getByText("import { createPetstoreClient } from '@petstore/client';").waitFor();
    await page.screenshot({ path: path.join(artefacts, 'docs-getting-started.png') });
  });

  it('sends nothing beyond the server, and the CSP has nothing to refuse', () => {
    const origin = new URL(server.url).origin;
    expect(requested).toContain(`${origin}/docs`);
    // Nothing reached the network layer for another origin, so the route had nothing to block…
    expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual(blocked);
    expect(blocked).toEqual([]);
    // …and the Content-Security-Policy refused nothing: Redoc's one outside load, the
    // "API docs by Redocly" badge logo, is drawn inline by scripts/build-docs.mjs.
    expect(refusedByCsp).toEqual([]);
  });
});
