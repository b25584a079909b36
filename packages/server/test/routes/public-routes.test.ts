import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { docsHtmlFile, openApiJsonFile, openApiYamlFile } from '../../src/contract.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';

let server: TestServer;

beforeAll(async () => {
  if (!existsSync(docsHtmlFile)) {
    // The docs are a build product (npm run docs); build them once for this test.
    execFileSync(process.execPath, ['scripts/build-docs.mjs'], {
      cwd: fileURLToPath(new URL('../../../../', import.meta.url)),
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
      stdio: 'ignore',
    });
  }
  server = await startTestServer();
}, 120_000);
afterAll(() => server.close());

describe('public routes (no key, no rate limit)', () => {
  it('/healthz answers 200 when the store answers', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('X-RateLimit-Limit')).toBeNull();
  });

  it('/healthz answers 503 when the store does not', async () => {
    const broken = await startTestServer({
      decorateStorage: (storage) => ({
        ...storage,
        ping: async () => {
          throw new Error('database is locked');
        },
      }),
    });
    try {
      const response = await fetch(`${broken.url}/healthz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 'unavailable' });
    } finally {
      await broken.close();
    }
  });

  it('/openapi.json serves the bundled description', async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(JSON.parse(readFileSync(openApiJsonFile, 'utf8')));
  });

  it('/openapi.yaml serves the same bundle in YAML', async () => {
    const response = await fetch(`${server.url}/openapi.yaml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/yaml/);
    const text = await response.text();
    expect(text).toBe(readFileSync(openApiYamlFile, 'utf8'));
    expect(parse(text)).toEqual(JSON.parse(readFileSync(openApiJsonFile, 'utf8')));
  });

  it('/docs serves the offline HTML reference', async () => {
    const response = await fetch(`${server.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(await response.text()).toBe(readFileSync(docsHtmlFile, 'utf8'));
  });

  it('ignores a bad Authorization header on public routes', async () => {
    const response = await fetch(`${server.url}/openapi.json`, {
      headers: { Authorization: 'Bearer nonsense' },
    });
    expect(response.status).toBe(200);
  });
});
