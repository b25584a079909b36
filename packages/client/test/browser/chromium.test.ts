import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type * as Client from '../../src/index.js';
import { faultyProxy } from '../real-server/faulty-proxy.js';
import { realServer } from '../real-server/support.js';
import { chromiumLaunchOptions } from '../../../../scripts/chromium.mjs';

// The client in a real headless Chromium: bundled for the browser platform from src (a
// Node-only import would fail the bundle; a Node global would fail at run time), talking to
// the real server with the browser's fetch — from the API's own origin, and from a page on
// another origin (CORS), allowed or not.

// The page exposes the module as `window.petstore`, as an app's own script would use it.
const page = (script: string) => `<!doctype html><title>client test</title>
<script type="module">import * as petstore from '${script}'; window.petstore = petstore;</script>`;
let profile: string;
let context: BrowserContext;
let bundle: string;
const sites: Server[] = [];

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
  profile = await mkdtemp(path.join(tmpdir(), 'petstore-client-chromium-'));
  context = await chromium.launchPersistentContext(profile, chromiumLaunchOptions());
});

afterEach(async () => {
  await Promise.all(context.pages().map((open) => open.close()));
  await Promise.all(
    sites.splice(0).map((site) => {
      site.closeAllConnections();
      return new Promise((resolve) => site.close(resolve));
    }),
  );
});

afterAll(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** A web site of its own on loopback (another port: another origin) serving the page and the bundle. */
async function site(): Promise<string> {
  const server = createServer((request, response) => {
    const isScript = request.url === '/client.js';
    response.writeHead(200, { 'Content-Type': isScript ? 'text/javascript' : 'text/html' });
    response.end(isScript ? bundle : page('/client.js'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sites.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Opens `url` and waits for the client module; collects console warnings. */
async function open(url: string): Promise<{ tab: Page; warnings: string[] }> {
  const tab = await context.newPage();
  const warnings: string[] = [];
  tab.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await tab.goto(url);
  await tab.waitForFunction(() => 'petstore' in window);
  return { tab, warnings };
}

type Petstore = { petstore: typeof Client };

describe('the client in Chromium', () => {
  it('bundles for the browser platform without Node built-ins', () => {
    expect(bundle).not.toMatch(/from ["']node:/);
    expect(bundle).toContain('createPetstoreClient');
  });

  it('calls every operation, paginates and warns about getPet from a page on the API origin', async () => {
    const server = await realServer();
    const apiKey = await server.createKey('free');
    // The page and the client bundle are served on the API's origin (same-origin fetch).
    await context.route(`${server.url}/client-test/**`, (route) => {
      const isScript = route.request().url().endsWith('.js');
      return route.fulfill({
        contentType: isScript ? 'text/javascript' : 'text/html',
        body: isScript ? bundle : page('/client-test/client.js'),
      });
    });
    const { tab, warnings } = await open(`${server.url}/client-test/index.html`);

    const outcome = await tab.evaluate(
      async ({ baseUrl, apiKey }) => {
        const { createPetstoreClient } = (window as unknown as Petstore).petstore;
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
    await context.unrouteAll();

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

  it('works from a page on another origin the API allows, reading every header it needs', async () => {
    const origin = await site();
    const server = await realServer({ corsOrigins: [origin] });
    const apiKey = await server.createKey('free');
    // The browser reaches the API through a recording proxy: preflights are seen on the wire.
    const api = await faultyProxy(server.url);
    const { tab, warnings } = await open(`${origin}/`);

    const outcome = await tab.evaluate(
      async ({ baseUrl, apiKey }) => {
        const { createPetstoreClient } = (window as unknown as Petstore).petstore;
        const client = createPetstoreClient({ baseUrl, apiKey, cache: true });
        const created = [];
        for (const name of ['Rex', 'Tom', 'Polly']) {
          const { data, replayed } = await client.createPet({ name, categoryId: 1 });
          created.push({ id: data?.id, replayed });
        }
        const idempotencyKey = 'browser-create-1';
        const first = await client.createPet({ name: 'Kit', categoryId: 2 }, { idempotencyKey });
        const replay = await client.createPet({ name: 'Kit', categoryId: 2 }, { idempotencyKey });
        const page1 = await client.listPets({ limit: 2 });
        const all = [];
        for await (const pet of client.listAllPets({ limit: 1 })) all.push(pet.name);
        const got = await client.getPet(2);
        const again = await client.getPet(2);
        return {
          created,
          replay: { first: first.data?.id, again: replay.data?.id, replayed: replay.replayed },
          rateLimit: page1.rateLimit && {
            limit: page1.rateLimit.limit,
            windows: page1.rateLimit.windows.map((window) => window.policy),
          },
          all,
          getPet: { name: got.data?.name, notModified: [got.notModified, again.notModified] },
          sameData: JSON.stringify(got.data) === JSON.stringify(again.data),
        };
      },
      { baseUrl: api.baseUrl, apiKey },
    );

    expect(outcome).toEqual({
      created: [
        { id: 1, replayed: false },
        { id: 2, replayed: false },
        { id: 3, replayed: false },
      ],
      replay: { first: 4, again: 4, replayed: true }, // Idempotent-Replayed is exposed
      rateLimit: { limit: 60, windows: ['minute', 'day'] }, // X-RateLimit-*, RateLimit* exposed
      all: ['Rex', 'Tom', 'Polly', 'Kit'], // Link is exposed
      getPet: { name: 'Tom', notModified: [false, true] }, // ETag is exposed
      sameData: true,
    });
    expect(api.traffic.slice(0, 2)).toEqual(['OPTIONS /v1/pets 204', 'POST /v1/pets 201']);
    const requests = api.traffic.filter((line) => !line.startsWith('OPTIONS '));
    expect(requests.slice(-2)).toEqual(['GET /v1/pets/2 200', 'GET /v1/pets/2 304']);
    expect(warnings).toHaveLength(1); // Deprecation, Sunset and Link are exposed
    expect(await server.storage.pets.list({ limit: 10 })).toHaveLength(4);
  });

  it('fails with an error naming CORS from a page on an origin the API does not allow, sending nothing', async () => {
    const allowed = await site();
    const other = await site();
    const server = await realServer({ corsOrigins: [allowed] });
    const apiKey = await server.createKey('free');
    const api = await faultyProxy(server.url);
    const { tab } = await open(`${other}/`);

    const errors = await tab.evaluate(
      async ({ baseUrl, apiKey }) => {
        const { createPetstoreClient } = (window as unknown as Petstore).petstore;
        // Retries as by default, without their waits (backoff jitter 0).
        const client = createPetstoreClient({ baseUrl, apiKey, random: () => 0 });
        const failed = [];
        for (const call of [
          () => client.listPets(),
          () => client.createPet({ name: 'Rex', categoryId: 1 }),
        ]) {
          try {
            await call();
            failed.push('no error');
          } catch (error) {
            const { name, message, cause } = error as Error & { cause?: Error };
            failed.push({ name, message, cause: cause?.name });
          }
        }
        return failed;
      },
      { baseUrl: api.baseUrl, apiKey },
    );

    const apiOrigin = new URL(api.baseUrl).origin;
    const why = `failed before a response arrived (from a page on ${other}, this is also how the browser reports a cross-origin request to ${apiOrigin} that the API does not allow for this origin: its CORS settings must list ${other})`;
    expect(errors).toEqual([
      {
        name: 'RetryBudgetExceededError',
        message: `GET /v1/pets gave up after 4 attempt(s) (last failure: GET /v1/pets ${why})`,
        cause: 'NetworkError',
      },
      {
        name: 'RetryBudgetExceededError',
        message: `POST /v1/pets gave up after 4 attempt(s) (last failure: POST /v1/pets ${why})`,
        cause: 'NetworkError',
      },
    ]);
    // Only preflights reached the API (answered 204 without CORS headers), never a request.
    expect(new Set(api.traffic)).toEqual(new Set(['OPTIONS /v1/pets 204']));
    expect(await server.storage.pets.list({ limit: 10 })).toEqual([]);
  });
});
