import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import url from 'node:url';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadDescription } from '../../src/contract.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { withHeadOperations } from '../../src/validation/openapi-validator.js';
import { createPet, get } from '../support/requests.js';

/**
 * The project's one patch of a dependency (patches/README.md), of express-openapi-validator:
 *
 * - it reads each request's raw query with `url.parse`, which on Node.js 24 walks the stack on
 *   every call from node_modules; the patch reads it without `url.parse` where `url.parse`
 *   would take its own fast path, and must answer exactly as `url.parse` does;
 * - it works out per request what depends only on the description (each route's pattern, an
 *   operation's parameters, its known query parameters); the patch keeps the first result, and
 *   must answer every request exactly as the validator as published does.
 */
const require = createRequire(import.meta.url);
const mutator =
  require('express-openapi-validator/dist/middlewares/parsers/req.parameter.mutator.js') as {
    queryOf?: (target: string) => string | null;
  };

/**
 * The legacy parser's class, which `node:url` exports but `@types/node` does not declare: its
 * `parse` method is `url.parse` without the check whether to warn.
 */
const { Url } = url as unknown as {
  Url: new () => { parse(target: string): void; query: string | null };
};

/** `url.parse(target).query`, through the legacy parser's method (no DEP0169 warning here). */
function urlParseQuery(target: string): string | null {
  const parsed = new Url();
  parsed.parse(target);
  return parsed.query;
}

/** What `read(target)` gives: the query, or the code of the error it throws. */
function outcome(read: (target: string) => string | null, target: string) {
  try {
    return { query: read(target) };
  } catch (error) {
    return { throws: (error as { code?: string }).code };
  }
}

describe('the express-openapi-validator patch', () => {
  it('is applied (npm ci applies patches/ after installing)', () => {
    expect(mutator.queryOf).toBeTypeOf('function');
  });

  it('reads the query of any request target exactly as url.parse does (or throws as it does)', () => {
    const queryOf = mutator.queryOf!;
    // Targets made of the characters url.parse treats apart: slashes, '?', '#', '@', '\',
    // whitespace (Unicode's too), control characters, and ordinary and non-ASCII text.
    const special = fc.constantFrom(
      ...['/', '/', '?', '#', '@', '\\', ' ', '\t', '\u00a0', '\ufeff', '\u0001', '\u007f'],
      ...['a', 'Z', '0', '%', '%20', '=', '&', "'", '[', ']', ':', 'é', '🐕', '\ud800'],
    );
    const target = fc.oneof(
      fc.array(special, { maxLength: 24 }).map((parts) => parts.join('')),
      fc.array(special, { maxLength: 24 }).map((parts) => `/v1/pets?${parts.join('')}`),
      fc.string({ unit: 'binary', maxLength: 40 }),
    );
    fc.assert(
      fc.property(target, (t) => {
        expect(outcome(queryOf, t)).toEqual(outcome(urlParseQuery, t));
      }),
      { numRuns: 5000 },
    );
  });

  describe('against the validator as published (the root alias the benchmark uses)', () => {
    type ValidatorModule = {
      middleware: (options: Record<string, unknown>) => RequestHandler[];
    };
    const servers: Server[] = [];
    const origins: string[] = [];

    /**
     * An Express app with the validator configured as the server configures it, that answers
     * what the validator made of the request (its operation, parameters and coerced query), or
     * the validator's error as it threw it.
     */
    async function listen(validator: ValidatorModule): Promise<string> {
      const app = express();
      app.use(express.json());
      app.use(
        validator.middleware({
          apiSpec: withHeadOperations(loadDescription()),
          validateApiSpec: false,
          validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false },
          validateResponses: false,
          validateSecurity: false,
          fileUploader: false,
          validateFormats: true,
          ignoreUndocumented: false,
        }),
      );
      app.use(((req, res) => {
        const { openApiRoute, pathParams } =
          (req as { openapi?: Record<string, unknown> }).openapi ?? {};
        res.json({ openApiRoute, pathParams, query: req.query, params: req.params });
      }) as RequestHandler);
      app.use(((err: Record<string, unknown>, _req, res, _next) => {
        const { status, message, errors, headers } = err;
        res.status(typeof status === 'number' ? status : 500).json({ message, errors, headers });
      }) as ErrorRequestHandler);
      const server = app.listen(0, '127.0.0.1');
      await once(server, 'listening');
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }

    beforeAll(async () => {
      origins.push(
        await listen(require('express-openapi-validator') as ValidatorModule),
        await listen(require('express-openapi-validator-as-published') as ValidatorModule),
      );
    });
    afterAll(() => Promise.all(servers.map((server) => server.close())));

    const ask = async (origin: string, request: GeneratedRequest) => {
      const response = await fetch(`${origin}${request.target}`, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      return { status: response.status, body: await response.text() };
    };

    interface GeneratedRequest {
      method: string;
      target: string;
      headers: Record<string, string>;
      body?: string;
    }

    // Paths and query parameters of the contract, near misses, and the characters the
    // validator treats apart; values valid and not for each parameter.
    const path = fc.constantFrom(
      ...['/v1/pets', '/v1/pets/', '/v1/PETS', '/v1/pets/1', '/v1/pets/0', '/v1/pets/-3'],
      ...['/v1/pets/abc', '/v1/pets/%zz', '/v1/pets/1%2F2', '/v1/pets/1/x', '/v1/pet'],
      ...['/v1', '/v1/', '/v1/other', '/v1/pets/99999999999999999999'],
    );
    const name = fc.constantFrom('limit', 'status', 'cursor', 'x', 'limit[a]', 'status[]', '');
    const value = fc.constantFrom(
      ...['20', '1', '0', '-1', '101', '2.5', 'abc', 'available', 'pending', 'sold', ''],
      ...['a,b', '%20', '%2C', '[1]', '{"a":1}', 'MQ', 'eyJpZCI6MX0', '@', ':'],
    );
    const query = fc
      .array(fc.tuple(name, value), { maxLength: 4 })
      .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map((p) => p.join('=')).join('&')}`));
    const body = fc.oneof(
      fc.record(
        {
          name: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
          categoryId: fc.oneof(fc.integer({ min: -2, max: 9 }), fc.string({ maxLength: 3 })),
          status: fc.constantFrom('available', 'pending', 'sold', 'lost', 1),
          id: fc.integer(),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const headerOf = {
      'idempotency-key': fc.constantFrom('"k-1"', 'k-2', '"', 'a b', 'x'.repeat(256)),
      'if-none-match': fc.constantFrom('*', '"5f3c9a1e0b7d4c2a"', 'W/"a", "b"', 'nope'),
    };
    const request: fc.Arbitrary<GeneratedRequest> = fc
      .record({
        method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'),
        path,
        query,
        body: fc.option(body, { nil: undefined }),
        contentType: fc.constantFrom('application/json', 'text/plain', undefined),
        idempotencyKey: fc.option(headerOf['idempotency-key'], { nil: undefined }),
        ifNoneMatch: fc.option(headerOf['if-none-match'], { nil: undefined }),
      })
      .map((r) => ({
        method: r.method,
        target: `${r.path}${r.query}`,
        headers: {
          ...(r.contentType === undefined ? {} : { 'content-type': r.contentType }),
          ...(r.idempotencyKey === undefined ? {} : { 'idempotency-key': r.idempotencyKey }),
          ...(r.ifNoneMatch === undefined ? {} : { 'if-none-match': r.ifNoneMatch }),
        },
        ...(r.body === undefined || r.method === 'GET' || r.method === 'HEAD'
          ? {}
          : { body: JSON.stringify(r.body) }),
      }));

    // 3,000 requests over loopback: 4–5 s alone, longer beside the rest of the suite.
    it(
      'answers every generated request exactly as the validator as published does',
      { timeout: 60_000 },
      async () => {
        const [patched = '', published = ''] = origins;
        const statuses = new Set<number>();
        await fc.assert(
          fc.asyncProperty(request, async (r) => {
            const [mine, theirs] = await Promise.all([ask(patched, r), ask(published, r)]);
            statuses.add(theirs.status);
            expect(mine).toEqual(theirs);
          }),
          { numRuns: 1500 },
        );
        // The requests reached every kind of answer: accepted, and each of the validator's errors.
        expect([...statuses].sort()).toEqual([200, 400, 404, 405, 415]);
      },
    );
  });

  describe('on the request path', () => {
    let server: TestServer;
    let key: string;
    beforeAll(async () => {
      server = await startTestServer();
      key = await server.createKey('pro');
    });
    afterAll(() => server.close());

    it('leaves url.parse uncalled for a page, a pet and a create', async () => {
      const parse = vi.spyOn(url, 'parse');
      try {
        const pet = await createPet(server, key, { name: 'Rex', categoryId: 1 });
        expect((await get(server, key, '/v1/pets?limit=5&status=available')).status).toBe(200);
        expect((await get(server, key, `/v1/pets/${pet.id}`)).status).toBe(200);
        expect(parse).not.toHaveBeenCalled();
      } finally {
        parse.mockRestore();
      }
    });
  });
});
