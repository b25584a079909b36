import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { createPet } from '../support/requests.js';

/**
 * RFC 9110 §9.3.2: HEAD is GET without the body — same status, same headers. With response
 * validation on (tests) and off (production), whose handlers write their answers differently.
 */
describe.each([
  ['on', true],
  ['off', false],
])('HEAD, response validation %s', (_label, validateResponses) => {
  let server: TestServer;
  let key: string;
  let petId: number;

  beforeAll(async () => {
    server = await startTestServer({ validateResponses });
    key = await server.createKey('pro');
    petId = (await createPet(server, key, { name: 'Rex', categoryId: 1 })).id;
    await createPet(server, key, { name: 'Tom', categoryId: 2 });
  });
  afterAll(() => server.close());

  /**
   * Headers that differ between any two responses, and the hop-by-hop ones (undici's fetch asks
   * to close the connection after a HEAD, so those differ by the client's choice).
   */
  const varying = new Set([
    'date',
    'x-request-id',
    'x-ratelimit-remaining',
    'ratelimit',
    'connection',
    'keep-alive',
  ]);
  /**
   * Framing of the content, which a HEAD may leave out (RFC 9110 §9.3.2): the compression
   * middleware of the public files compresses a GET's body and so sends it chunked; a HEAD has
   * none to compress. The API's answers are not compressed: there they must match too.
   */
  const framing = new Set(['content-encoding', 'content-length', 'transfer-encoding']);
  const stableHeaders = (response: Response, compressed: boolean) =>
    Object.fromEntries(
      [...response.headers].filter(
        ([name]) => !varying.has(name) && !(compressed && framing.has(name)),
      ),
    );

  it.each([
    ['listPets', () => '/v1/pets?limit=1', true],
    ['getPet', () => `/v1/pets/${petId}`, true],
    ['an unknown pet', () => '/v1/pets/999999', true],
    ['a query the contract refuses', () => '/v1/pets?limit=0', true],
    ['listPets without a key', () => '/v1/pets', false],
    ['an unknown path', () => '/v1/owners', true],
    ['/healthz', () => '/healthz', false],
    ['/openapi.json', () => '/openapi.json', false],
  ])('answers HEAD on %s as GET, without a body', async (_case, path, withKey) => {
    const headers: Record<string, string> = withKey ? { Authorization: `Bearer ${key}` } : {};
    const get = await fetch(`${server.url}${path()}`, { headers });
    const head = await fetch(`${server.url}${path()}`, { method: 'HEAD', headers });
    expect(head.status).toBe(get.status);
    const compressed = path() === '/openapi.json';
    expect(stableHeaders(head, compressed)).toEqual(stableHeaders(get, compressed));
    expect(await head.text()).toBe('');
    expect((await get.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('lists HEAD in Allow wherever GET is', async () => {
    const response = await fetch(`${server.baseUrl}/pets/1`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('GET, HEAD');
  });
});
