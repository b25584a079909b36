import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { get } from '../support/requests.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey();
});
afterAll(() => server.close());

const withRequestId = (id: string) =>
  fetch(`${server.baseUrl}/pets`, {
    headers: { Authorization: `Bearer ${key}`, 'X-Request-Id': id },
  });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  it('echoes a short safe token the caller sent', async () => {
    const response = await withRequestId('checkout-42.retry:1');
    expect(response.headers.get('X-Request-Id')).toBe('checkout-42.retry:1');
  });

  it.each([
    ['has unsafe characters', 'a b<script>'],
    ['is longer than 64 characters', 'x'.repeat(65)],
  ])('replaces a caller id that %s with a generated UUID', async (_case, id) => {
    const response = await withRequestId(id);
    expect(response.headers.get('X-Request-Id')).toMatch(UUID);
  });

  it('generates a distinct id for every request without one', async () => {
    const first = (await get(server, key, '/v1/pets')).headers.get('X-Request-Id');
    const second = (await get(server, key, '/v1/pets')).headers.get('X-Request-Id');
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
  });

  it('is set on public routes and errors too', async () => {
    expect((await get(server, undefined, '/healthz')).headers.get('X-Request-Id')).toMatch(UUID);
    expect((await get(server, undefined, '/v1/pets')).headers.get('X-Request-Id')).toMatch(UUID);
  });
});

describe('security headers', () => {
  it('sends the OWASP REST set on API answers, errors included: nothing may load, frame or sniff them', async () => {
    for (const response of [
      await get(server, key, '/v1/pets'),
      await get(server, undefined, '/v1/pets'),
      await get(server, undefined, '/openapi.json'),
    ]) {
      expect(response.headers.get('Content-Security-Policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(response.headers.get('X-Frame-Options')).toBe('DENY');
      expect(response.headers.get('Strict-Transport-Security')).toMatch(/^max-age=\d+/);
      expect(response.headers.get('Referrer-Policy')).toBe('no-referrer');
      expect(response.headers.get('X-Powered-By')).toBeNull();
      // helmet's headers for HTML documents are left to /docs.
      expect(response.headers.get('Cross-Origin-Opener-Policy')).toBeNull();
    }
  });

  it('lets /docs run the inlined Redoc: inline script and styles, blob: workers, nothing remote', async () => {
    const response = await get(server, undefined, '/docs');
    const csp = response.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("script-src 'self' 'unsafe-inline' blob:");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/https?:/);
    expect(response.headers.get('Cross-Origin-Opener-Policy')).toBe('same-origin');
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
  });
});
