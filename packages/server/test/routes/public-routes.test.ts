import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
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
      const first = await fetch(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'br' } });
      expect(first.headers.get('Cache-Control')).toBe('public, max-age=300');
      const etag = first.headers.get('ETag');
      expect(etag).toMatch(/^"[0-9a-f]{16}-br"$/);
      const again = await fetch(`${server.url}${path}`, {
        headers: { 'Accept-Encoding': 'br', 'If-None-Match': etag! },
      });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    },
  );

  it('gives each coding of a file its own strong ETag: a 304 only for the coding it would send', async () => {
    const tags = new Map<string, string>();
    for (const coding of ['br', 'gzip', 'identity']) {
      const response = await raw('GET', '/openapi.yaml', { 'Accept-Encoding': coding });
      tags.set(coding, response.headers.etag as string);
    }
    const [plain, br, gzip] = [tags.get('identity')!, tags.get('br')!, tags.get('gzip')!];
    expect(plain).toMatch(/^"[0-9a-f]{16}"$/);
    expect([br, gzip]).toEqual([plain.replace(/"$/, '-br"'), plain.replace(/"$/, '-gzip"')]);
    // The gzip body's tag does not validate the brotli body, nor the file's.
    const brWithGzipTag = await raw('GET', '/openapi.yaml', {
      'Accept-Encoding': 'br',
      'If-None-Match': gzip,
    });
    expect(brWithGzipTag.status).toBe(200);
    const plainWithBrTag = await raw('GET', '/openapi.yaml', { 'If-None-Match': br });
    expect(plainWithBrTag.status).toBe(200);
    const gzipWithItsTag = await raw('GET', '/openapi.yaml', {
      'Accept-Encoding': 'gzip',
      'If-None-Match': `${br}, ${gzip}`,
    });
    expect(gzipWithItsTag.status).toBe(304);
  });

  it('answers HEAD /docs with the headers of GET, Content-Length included, and no body', async () => {
    const headers = { 'Accept-Encoding': 'br' };
    const get = await raw('GET', '/docs', headers);
    const head = await raw('HEAD', '/docs', headers);
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary']) {
      expect(head.headers[name]).toBe(get.headers[name]);
    }
    expect(Number(get.headers['content-length'])).toBe(get.body.length);
  });

  it('sends, for any Accept-Encoding, a coding it accepts (or the file itself) that decodes to the file', async () => {
    const file = readFileSync(openApiYamlFile);
    const coding = fc.constantFrom('br', 'gzip', 'deflate', 'identity', '*', 'BR', 'zstd', 'x-y');
    const quality = fc.option(fc.constantFrom('0', '0.0', '0.001', '0.5', '1', '1.000'));
    const item = fc.tuple(coding, quality).map(([c, q]) => (q === null ? c : `${c};q=${q}`));
    const header = fc.array(item, { maxLength: 4 }).map((items) => items.join(', '));
    await fc.assert(
      fc.asyncProperty(header, async (acceptEncoding) => {
        const response = await raw('GET', '/openapi.yaml', { 'Accept-Encoding': acceptEncoding });
        expect(response.status).toBe(200);
        expect(response.headers.vary).toMatch(/Accept-Encoding/);
        const sent = response.headers['content-encoding'];
        const decoded =
          sent === 'br'
            ? brotliDecompressSync(response.body)
            : sent === 'gzip'
              ? gunzipSync(response.body)
              : response.body;
        expect(decoded.equals(file)).toBe(true);
        if (sent !== undefined) expect(acceptable(acceptEncoding, sent as string)).toBe(true);
      }),
      { numRuns: 150 },
    );
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

/** A request with node:http, which (unlike fetch) neither adds Accept-Encoding nor decodes. */
function raw(method: string, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(`${server.url}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    },
  );
}

/**
 * Whether `Accept-Encoding` accepts `coding` (RFC 9110 §12.5.3): listed by name (any case) or
 * by `*` when not listed, with a q-value above 0.
 */
function acceptable(acceptEncoding: string, coding: string): boolean {
  const items = acceptEncoding
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const [name, q] = item.split(';q=');
      return { name: name!.toLowerCase(), q: q === undefined ? 1 : Number(q) };
    });
  const named = items.filter((item) => item.name === coding);
  const chosen = named.length > 0 ? named : items.filter((item) => item.name === '*');
  return chosen.some((item) => item.q > 0);
}
