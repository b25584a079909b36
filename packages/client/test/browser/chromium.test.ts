import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Client from '../../src/index.js';
import { realServer } from '../real-server/support.js';

// The client in a real headless Chromium: bundled for the browser platform from src (a
// Node-only import would fail the bundle; a Node global would fail at run time), served
// from the API's own origin, talking to the real server with the browser's fetch.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The page exposes the module as `window.petstore`, as an app's own script would use it.
const PAGE = `<!doctype html><title>client test</title>
<script type="module">import * as petstore from '/client-test/client.js'; window.petstore = petstore;</script>`;
let browser: Browser;
let bundle: string;

beforeAll(async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../../src/index.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  bundle = result.outputFiles[0]?.text ?? '';
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
});

describe('the client in Chromium', () => {
  it('bundles for the browser platform without Node built-ins', () => {
    expect(bundle).not.toMatch(/from ["']node:/);
    expect(bundle).toContain('createPetstoreClient');
  });

  it('calls every operation, paginates and warns about getPet from a web page', async () => {
    const server = await realServer();
    const apiKey = await server.createKey('free');
    const page = await browser.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    // The page and the client bundle are served on the API's origin (same-origin fetch).
    await page.route(`${server.url}/client-test/**`, (route) => {
      const isScript = route.request().url().endsWith('.js');
      return route.fulfill({
        contentType: isScript ? 'text/javascript' : 'text/html',
        body: isScript ? bundle : PAGE,
      });
    });
    await page.goto(`${server.url}/client-test/index.html`);
    await page.waitForFunction(() => 'petstore' in window);

    const outcome = await page.evaluate(
      async ({ baseUrl, apiKey }) => {
        const { createPetstoreClient } = (window as unknown as { petstore: typeof Client })
          .petstore;
        const client = createPetstoreClient({ baseUrl, apiKey });
        const created = [];
        for (const name of ['Rex', 'Tom', 'Polly']) {
          created.push((await client.createPet({ name, categoryId: 1, status: 'available' })).data);
        }
        const page1 = await client.listPets({ limit: 2 });
        const one = await client.getPet(2);
        const missing = await client.getPet(999);
        const all = [];
        for await (const pet of client.listAllPets({ limit: 1 })) all.push(pet.name);
        return {
          created,
          page1: page1.data,
          remaining: page1.rateLimit?.remaining,
          one: one.data,
          missing: missing.error,
          all,
        };
      },
      { baseUrl: server.baseUrl, apiKey },
    );
    await page.close();

    expect(outcome).toEqual({
      created: [
        { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        { id: 2, name: 'Tom', categoryId: 1, status: 'available' },
        { id: 3, name: 'Polly', categoryId: 1, status: 'available' },
      ],
      page1: [
        { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        { id: 2, name: 'Tom', categoryId: 1, status: 'available' },
      ],
      remaining: 59,
      one: { id: 2, name: 'Tom', categoryId: 1, status: 'available' },
      missing: { code: 'not_found', message: expect.any(String), status: 404 },
      all: ['Rex', 'Tom', 'Polly'],
    });
    expect(warnings).toEqual([
      `Pet Store API: GET /pets/{petId} is deprecated and will be removed on 2030-12-05; use ${server.url}/v1/pets instead (see ${server.url}/docs#tag/Pets/operation/getPet).`,
    ]);
  });
});
