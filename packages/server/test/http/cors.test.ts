import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDescription } from '../../src/contract.js';
import { corsHeadersOf, PREFLIGHT_MAX_AGE_SECONDS } from '../../src/http/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { expectApiHeaders } from '../support/contract.js';

const allowedOrigin = 'https://app.example';
const otherOrigin = 'https://evil.example';

const description = loadDescription();
/** Every response header the contract documents, as a browser app needs to read them. */
const documented = corsHeadersOf(description);
/** What the contract says `Access-Control-Expose-Headers` holds. */
const exposeHeadersConst = (
  description as { components: { headers: Record<string, { schema: { const?: string } }> } }
).components.headers['Access-Control-Expose-Headers']?.schema.const;

describe('CORS with CORS_ORIGINS set to a list', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer({ corsOrigins: [allowedOrigin, 'http://127.0.0.1:5173'] });
    key = await server.createKey('pro');
  });
  afterAll(() => server.close());

  const preflight = (origin: string, method = 'POST') =>
    fetch(`${server.baseUrl}/pets`, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });

  it('answers a preflight from an allowed origin with 204 and what it may send', async () => {
    const response = await preflight(allowedOrigin);
    expect(response.status).toBe(204);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe(allowedOrigin);
    expect(response.headers.get('Access-Control-Allow-Methods')).toBe('GET, HEAD, POST');
    const allowedHeaders = response.headers.get('Access-Control-Allow-Headers')?.split(', ');
    expect(allowedHeaders).toEqual(documented.allowedHeaders);
    expect([...(allowedHeaders ?? [])].sort()).toEqual([
      'Authorization',
      'Content-Type',
      'Idempotency-Key',
      'If-None-Match',
      'X-Request-Id',
    ]);
    expect(response.headers.get('Access-Control-Max-Age')).toBe(String(PREFLIGHT_MAX_AGE_SECONDS));
    expect(response.headers.get('Vary')).toMatch(/Origin/);
  });

  it('gives a disallowed origin no CORS header at all, preflight (still 204) or not', async () => {
    const response = await preflight(otherOrigin);
    expect(response.status).toBe(204);
    expect(
      [...response.headers.keys()].filter((name) => name.startsWith('access-control-')),
    ).toEqual([]);
    const actual = await fetch(`${server.baseUrl}/pets`, {
      headers: { Origin: otherOrigin, Authorization: `Bearer ${key}` },
    });
    expect(actual.status).toBe(200);
    expect(actual.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  it.each([
    ['a 200', true],
    ['a 401', false],
  ])('lets an allowed origin read every documented header of %s', async (_case, withKey) => {
    const response = await fetch(`${server.baseUrl}/pets`, {
      headers: { Origin: allowedOrigin, ...(withKey ? { Authorization: `Bearer ${key}` } : {}) },
    });
    expectApiHeaders(response);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe(allowedOrigin);
    expect(response.headers.get('Vary')).toMatch(/Origin/);
    const exposed = response.headers.get('Access-Control-Expose-Headers');
    expect(exposed).toBe(exposeHeadersConst);
    expect(exposed?.split(', ')).toEqual(documented.exposedHeaders);
    expect(exposed?.split(', ')).toEqual(
      expect.arrayContaining([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
        'Link',
        'Deprecation',
        'Sunset',
        'X-Request-Id',
      ]),
    );
  });
});

describe('CORS with CORS_ORIGINS=*', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ corsOrigins: '*' });
  });
  afterAll(() => server.close());

  it('lets any origin call, without credentials', async () => {
    const response = await fetch(`${server.url}/openapi.json`, {
      headers: { Origin: otherOrigin },
    });
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(response.headers.get('Vary')).toMatch(/Origin/);
    expect(response.headers.get('Access-Control-Allow-Credentials')).toBeNull();
  });
});

describe('CORS unset', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('sends no CORS header, and a preflight gets the API’s usual answer', async () => {
    const response = await fetch(`${server.baseUrl}/pets`, {
      method: 'OPTIONS',
      headers: { Origin: allowedOrigin, 'Access-Control-Request-Method': 'GET' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});
