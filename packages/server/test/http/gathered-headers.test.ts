import { request, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryRateLimiter,
  startTestServer,
  type TestServer,
} from '../../src/testing/index.js';

/**
 * Most headers are gathered on the way through the middleware and written with the status line
 * in one `writeHead` (src/http/response-headers.ts). With response validation off (production)
 * a JSON answer takes that path; with it on (tests), Express's `res.json` writes the head and
 * the gathered headers are set just before. Either way every answer must carry the same
 * headers, each once: a header set twice would reach the client as two (two CSPs, say).
 */
interface RawAnswer {
  status: number;
  /** [lowercased name, value] in the order they came. */
  headers: [string, string][];
}

/** One request over a plain socket, for the raw header lines (fetch joins repeated ones). */
function raw(
  server: TestServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      const pairs: [string, string][] = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) {
        pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
      }
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: pairs }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Values that differ between any two answers. */
const varying = new Set(['date', 'x-request-id', 'ratelimit', 'x-ratelimit-remaining']);
const stable = (answer: RawAnswer) =>
  answer.headers.map(([name, value]) => [name, varying.has(name) ? '…' : value]);

const ORIGIN = 'https://app.example';
const servers: Record<'on' | 'off', { server: TestServer; key: string; petId: number }> =
  {} as never;

beforeAll(async () => {
  for (const mode of ['on', 'off'] as const) {
    const server = await startTestServer({
      validateResponses: mode === 'on',
      corsOrigins: [ORIGIN],
      // A real limiter, so that a 429 comes with its Retry-After.
      limiter: (clock) => createMemoryRateLimiter({ clock, ban: { threshold: 0, seconds: 1 } }),
    });
    const key = await server.createKey('pro');
    // Two pets, so that a page of one has a next page (Link).
    for (const name of ['Rex', 'Tom']) {
      const created = await raw(
        server,
        'POST',
        '/v1/pets',
        { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        JSON.stringify({ name, categoryId: 1 }),
      );
      expect(created.status).toBe(201);
    }
    servers[mode] = { server, key, petId: 1 };
  }
});
afterAll(() => Promise.all(Object.values(servers).map(({ server }) => server.close())));

type Case = [
  string,
  (s: (typeof servers)['on']) => Promise<RawAnswer>,
  number,
  Record<string, string>,
];

const auth = (key: string, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${key}`,
  ...extra,
});
const json = { 'Content-Type': 'application/json' };

const cases: Case[] = [
  [
    'a page (Link, ETag)',
    ({ server, key }) => raw(server, 'GET', '/v1/pets?limit=1', auth(key)),
    200,
    { 'content-type': 'application/json; charset=utf-8', link: expect.stringContaining('cursor=') },
  ],
  [
    'a page not modified (304)',
    async ({ server, key }) => {
      const first = await raw(server, 'GET', '/v1/pets?limit=1', auth(key));
      const etag = first.headers.find(([name]) => name === 'etag')![1];
      return raw(server, 'GET', '/v1/pets?limit=1', auth(key, { 'If-None-Match': etag }));
    },
    304,
    {},
  ],
  [
    'getPet (deprecation headers)',
    ({ server, key, petId }) => raw(server, 'GET', `/v1/pets/${petId}`, auth(key)),
    200,
    {
      deprecation: '@1795219200',
      sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      link: expect.stringContaining('rel="successor-version"'),
      etag: expect.any(String),
    },
  ],
  [
    'a create',
    ({ server, key }) =>
      raw(server, 'POST', '/v1/pets', auth(key, json), '{"name":"Tom","categoryId":2}'),
    201,
    {},
  ],
  [
    'an idempotent create replayed',
    async ({ server, key }) => {
      const headers = auth(key, { ...json, 'Idempotency-Key': 'gathered-headers-1' });
      const body = '{"name":"Kit","categoryId":3}';
      await raw(server, 'POST', '/v1/pets', headers, body);
      return raw(server, 'POST', '/v1/pets', headers, body);
    },
    201,
    { 'idempotent-replayed': 'true' },
  ],
  [
    'no key (401)',
    ({ server }) => raw(server, 'GET', '/v1/pets'),
    401,
    {
      'content-type': 'application/json; charset=utf-8',
      'www-authenticate': 'Bearer realm="petstore"',
    },
  ],
  [
    'a key over its limit (429)',
    async ({ server }) => {
      const key = await server.createKey('enterprise', { perMinute: 1, perDay: 100 });
      expect((await raw(server, 'GET', '/v1/pets?limit=1', auth(key))).status).toBe(200);
      return raw(server, 'GET', '/v1/pets?limit=1', auth(key));
    },
    429,
    { 'retry-after': expect.stringMatching(/^\d+$/), 'x-ratelimit-remaining': '0' },
  ],
  [
    'a query the contract refuses (400)',
    ({ server, key }) => raw(server, 'GET', '/v1/pets?limit=0', auth(key)),
    400,
    {},
  ],
  [
    'an unknown path (404)',
    ({ server, key }) => raw(server, 'GET', '/v1/owners', auth(key)),
    404,
    {},
  ],
  [
    'a method the path lacks (405)',
    ({ server, key }) => raw(server, 'DELETE', '/v1/pets/1', auth(key)),
    405,
    { allow: 'GET, HEAD' },
  ],
  [
    'a cross-origin page',
    ({ server, key }) => raw(server, 'GET', '/v1/pets?limit=1', auth(key, { Origin: ORIGIN })),
    200,
    { 'access-control-allow-origin': ORIGIN },
  ],
  [
    'a preflight',
    ({ server }) =>
      raw(server, 'OPTIONS', '/v1/pets', {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      }),
    204,
    { 'access-control-allow-origin': ORIGIN },
  ],
  ['/healthz', ({ server }) => raw(server, 'GET', '/healthz'), 200, {}],
  ['/openapi.json', ({ server }) => raw(server, 'GET', '/openapi.json'), 200, {}],
];

describe('gathered headers', () => {
  it.each(cases)(
    'gives %s the same headers, each once, with response validation on and off',
    async (_case, send, status, expected) => {
      const on = await send(servers.on);
      const off = await send(servers.off);
      for (const answer of [on, off]) {
        expect(answer.status).toBe(status);
        const names = answer.headers.map(([name]) => name);
        expect(
          names.filter((name, i) => names.indexOf(name) !== i),
          'repeated',
        ).toEqual([]);
        const headers = Object.fromEntries(answer.headers);
        expect(headers['x-request-id']).toBeDefined();
        expect(headers['content-security-policy']).toBe(
          "default-src 'none'; frame-ancestors 'none'",
        );
        expect(headers['x-content-type-options']).toBe('nosniff');
        if (!/healthz|openapi|preflight/.test(_case)) {
          expect(headers['x-ratelimit-limit']).toMatch(/^\d+$/);
          expect(headers['ratelimit-policy']).toBeDefined();
        }
        expect(headers).toMatchObject(expected);
      }
      expect(stable(off).sort()).toEqual(stable(on).sort());
    },
  );

  it("goes through a wrapper of Node's writeHead installed after the app was built, as an APM agent's", async () => {
    const nodeWriteHead = ServerResponse.prototype.writeHead;
    const seen: number[] = [];
    ServerResponse.prototype.writeHead = function wrapped(
      this: ServerResponse,
      ...args: Parameters<ServerResponse['writeHead']>
    ) {
      seen.push(args[0]);
      return nodeWriteHead.apply(this, args);
    } as ServerResponse['writeHead'];
    try {
      for (const { server, key } of Object.values(servers)) {
        const page = await raw(server, 'GET', '/v1/pets?limit=1', auth(key));
        const missing = await raw(server, 'GET', '/v1/owners', auth(key));
        expect([page.status, missing.status]).toEqual([200, 404]);
        expect(Object.fromEntries(page.headers)['x-content-type-options']).toBe('nosniff');
      }
    } finally {
      ServerResponse.prototype.writeHead = nodeWriteHead;
    }
    // Response validation on, then off: each answer's head went through the wrapper once.
    expect(seen).toEqual([200, 404, 200, 404]);
  });

  it('lets /docs set its own security headers over the gathered ones, each once', async () => {
    for (const { server } of Object.values(servers)) {
      const answer = await raw(server, 'GET', '/docs');
      expect(answer.status).toBe(200);
      const csp = answer.headers.filter(([name]) => name === 'content-security-policy');
      expect(csp).toHaveLength(1);
      expect(csp[0]![1]).toContain("script-src 'self' 'unsafe-inline' blob:");
      const names = answer.headers.map(([name]) => name);
      expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    }
  });
});
