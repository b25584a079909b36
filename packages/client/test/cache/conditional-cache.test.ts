import { describe, expect, it } from 'vitest';
import {
  ConditionalCache,
  createCachingFetch,
  type ConditionalCacheStore,
} from '../../src/cache/conditional-cache.js';

// Units of the caching layer against a scripted fetch; the behaviour against the real server
// is in test/real-server/conditional-cache.test.ts.

const URL_ = 'https://api.example/v1/pets/1';
const PET = '{"id":1,"name":"Rex","categoryId":1}';

function stored(etag = '"a1"'): Response {
  return new Response(PET, {
    status: 200,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(PET.length),
      ETag: etag,
      'X-Request-Id': 'first',
    },
  });
}

/** A caching fetch over a script of answers, recording each request's If-None-Match. */
function setup(answers: Response[], store: ConditionalCacheStore = new ConditionalCache()) {
  const sent: Array<string | null> = [];
  const revalidated = new WeakSet<Response>();
  const fetch = createCachingFetch({
    store,
    apiKey: 'psk_test',
    revalidated,
    fetch: async (request) => {
      sent.push(request.headers.get('If-None-Match'));
      const next = answers.shift();
      if (!next) throw new Error('script exhausted');
      return next;
    },
  });
  return { fetch, sent, revalidated, store };
}

describe('ConditionalCache', () => {
  it('keeps at most twice maxEntries, dropping the least recently used first', () => {
    const cache = new ConditionalCache({ maxEntries: 2 });
    const entry = { etag: '"x"', body: new ArrayBuffer(0), headers: [] };
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) cache.set(key, entry);
    expect(cache.size).toBeLessThanOrEqual(4);
    expect(cache.get('g')).toBe(entry);
    expect(cache.get('a')).toBeUndefined();
  });

  it.each([0, 1.5, Number.NaN])('rejects maxEntries %s with a RangeError', (maxEntries) => {
    expect(() => new ConditionalCache({ maxEntries })).toThrow(
      new RangeError('cache.maxEntries must be an integer of at least 1'),
    );
  });
});

describe('createCachingFetch', () => {
  it("answers a 304 with the stored body under the 304's headers, keeping the stored representation headers", async () => {
    const notModified = new Response(null, {
      status: 304,
      headers: { ETag: '"a1"', 'X-Request-Id': 'second', 'Content-Length': '0' },
    });
    const { fetch, sent, revalidated } = setup([stored(), notModified]);
    await fetch(new Request(URL_));

    const response = await fetch(new Request(URL_));

    expect(sent).toEqual([null, '"a1"']);
    expect(response.status).toBe(200);
    expect(revalidated.has(response)).toBe(true);
    expect(await response.text()).toBe(PET);
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'application/json',
      etag: '"a1"',
      'x-request-id': 'second',
    });
  });

  it.each([
    [
      'Cache-Control: no-store',
      new Headers({ ETag: '"a1"', 'Cache-Control': 'private, no-store' }),
    ],
    ['no ETag', new Headers({ 'Content-Type': 'application/json' })],
  ])('does not store a 200 with %s', async (_, headers) => {
    const { fetch, sent } = setup([
      new Response(PET, { status: 200, headers }),
      new Response(PET, { status: 200, headers }),
    ]);
    await fetch(new Request(URL_));
    await fetch(new Request(URL_));
    expect(sent).toEqual([null, null]);
  });

  it('forgets a representation when the resource answers 404, and replaces it on a new 200', async () => {
    const gone = new Response('{}', { status: 404 });
    const { fetch, sent } = setup([stored('"a1"'), gone, stored('"b2"'), stored('"b2"')]);
    await fetch(new Request(URL_));
    await fetch(new Request(URL_));
    await fetch(new Request(URL_));
    await fetch(new Request(URL_));
    expect(sent).toEqual([null, '"a1"', null, '"b2"']);
  });

  it.each([
    [
      'a request with its own If-None-Match',
      new Request(URL_, { headers: { 'If-None-Match': '"mine"' } }),
    ],
    ['a HEAD', new Request(URL_, { method: 'HEAD' })],
    ['a POST', new Request(URL_, { method: 'POST', body: '{}' })],
  ])('passes %s through untouched', async (_, request) => {
    const { fetch, sent, store } = setup([stored(), stored()]);
    await fetch(request.clone());
    await fetch(request);
    const own = request.headers.get('If-None-Match');
    expect(sent).toEqual([own, own]);
    expect((store as ConditionalCache).size).toBe(0);
  });
});
