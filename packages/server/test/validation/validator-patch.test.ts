import { createRequire } from 'node:module';
import url from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { createPet, get } from '../support/requests.js';

/**
 * The project's one patch of a dependency (patches/README.md): express-openapi-validator reads
 * each request's raw query with `url.parse`, which on Node.js 24 walks the stack on every call
 * from node_modules. The patch reads it without `url.parse` where `url.parse` would take its
 * own fast path, and must answer exactly as `url.parse` does.
 */
const mutator = createRequire(import.meta.url)(
  'express-openapi-validator/dist/middlewares/parsers/req.parameter.mutator.js',
) as { queryOf?: (target: string) => string | null };

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
