import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { docsHtmlFile, openApiJsonFile, openApiYamlFile } from '../../src/contract.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { expectNotReadyButAlive } from '../support/store-unavailable.js';

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
  it('/healthz (liveness) and /readyz (readiness) answer 200 when the store answers', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('X-RateLimit-Limit')).toBeNull();
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { store: 'ok', rateLimits: 'memory' },
    });
  });

  it('/readyz answers 503 when the store does not, while /healthz stays 200', async () => {
    const broken = await startTestServer({
      decorateStorage: (storage) => ({
        ...storage,
        ping: async () => {
          throw new Error('database is locked');
        },
      }),
    });
    try {
      await expectNotReadyButAlive(broken.url);
    } finally {
      await broken.close();
    }
  });

  it.each([
    ['/docs', 'br', 'br'],
    ['/docs', 'gzip', 'gzip'],
    ['/docs', 'gzip, deflate, br', 'br'],
    ['/openapi.json', 'gzip', 'gzip'],
    ['/openapi.yaml', 'br', 'br'],
    ['/docs', 'identity', null],
  ])('compresses %s for Accept-Encoding: %s', async (path, accept, encoding) => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { 'Accept-Encoding': accept },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Encoding')).toBe(encoding);
    expect(response.headers.get('Vary')).toMatch(/Accept-Encoding/);
    // fetch decodes gzip and br itself: the text is the file's.
    const file = {
      '/docs': docsHtmlFile,
      '/openapi.json': openApiJsonFile,
      '/openapi.yaml': openApiYamlFile,
    }[path]!;
    expect(await response.text()).toBe(readFileSync(file, 'utf8'));
  });

  it.each(['/docs', '/openapi.json', '/openapi.yaml'])(
    'gives %s a strong ETag and Cache-Control, and answers 304 to its ETag',
    async (path) => {
      const first = await fetch(`${server.url}${path}`);
      expect(first.headers.get('Cache-Control')).toBe('public, max-age=300');
      const etag = first.headers.get('ETag');
      expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
      const again = await fetch(`${server.url}${path}`, { headers: { 'If-None-Match': etag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    },
  );

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
