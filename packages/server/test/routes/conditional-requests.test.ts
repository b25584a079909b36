import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { expectApiHeaders, expectDeprecationHeaders, expectError } from '../support/contract.js';
import { createPet } from '../support/requests.js';

/** RFC 9110 §8.8.3 and §13.1.2: strong ETags on getPet and listPets, If-None-Match → 304. */
describe('conditional GETs', () => {
  let server: TestServer;
  let key: string;
  let petId: number;

  beforeAll(async () => {
    server = await startTestServer();
    key = await server.createKey('pro');
    petId = (await createPet(server, key, { name: 'Rex', categoryId: 1, status: 'sold' })).id;
  });
  afterAll(() => server.close());

  const fetchWith = (path: string, ifNoneMatch?: string, method = 'GET') =>
    fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(ifNoneMatch === undefined ? {} : { 'If-None-Match': ifNoneMatch }),
      },
    });

  it.each([
    ['listPets', () => '/pets?limit=5'],
    ['listPets with a status', () => '/pets?status=sold'],
    ['getPet', () => `/pets/${petId}`],
  ])(
    'answers a repeated %s with its ETag by 304, no body, rate-limit headers kept',
    async (_case, path) => {
      const first = await fetchWith(path());
      expect(first.status).toBe(200);
      const etag = first.headers.get('ETag');
      expect(etag).toMatch(/^"[0-9a-f]{16}"$/);

      for (const ifNoneMatch of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await fetchWith(path(), ifNoneMatch);
        expect(again.status).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('ETag')).toBe(etag);
        expectApiHeaders(again);
        expect(again.headers.get('RateLimit')).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
        if (path().startsWith('/pets/')) expectDeprecationHeaders(again);
      }
      expect((await fetchWith(path(), '"0000000000000000"')).status).toBe(200);
      expect((await fetchWith(path(), etag!, 'HEAD')).status).toBe(304);
    },
  );

  it('changes a page’s ETag when a pet is added, and when a next page appears', async () => {
    const before = (await fetchWith('/pets?limit=2')).headers.get('ETag');
    await createPet(server, key, { name: 'Tom', categoryId: 2 });
    const after = await fetchWith('/pets?limit=2', before!);
    expect(after.status).toBe(200);
    const withTwo = after.headers.get('ETag');
    expect(withTwo).not.toBe(before);
    // Same two pets in the body, but now a next page exists: the tag must change.
    await createPet(server, key, { name: 'Polly', categoryId: 3 });
    const withNext = await fetchWith('/pets?limit=2', withTwo!);
    expect(withNext.status).toBe(200);
    expect(withNext.headers.get('Link')).toMatch(/rel="next"/);
  });

  it('answers 400 to a malformed If-None-Match', async () => {
    const response = await fetchWith('/pets', 'not-a-tag');
    expectApiHeaders(response);
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message).toMatch(/^request\/headers\/if-none-match /);
  });
});

describe('with response validation off (production)', () => {
  it('sends list pages and pets with the same JSON, framing and ETags as with validation on', async () => {
    const checked = await startTestServer();
    const unchecked = await startTestServer({ validateResponses: false });
    try {
      const answers = [];
      for (const server of [checked, unchecked]) {
        const key = await server.createKey('pro');
        const headers = { Authorization: `Bearer ${key}` };
        const pet = await createPet(server, key, { name: 'Rex', categoryId: 1 });
        await createPet(server, key, { name: 'Tom', categoryId: 2, status: 'sold' });
        const list = await fetch(`${server.baseUrl}/pets?limit=1`, { headers });
        const one = await fetch(`${server.baseUrl}/pets/${pet.id}`, { headers });
        answers.push(
          await Promise.all(
            [list, one].map(async (response) => ({
              status: response.status,
              type: response.headers.get('Content-Type'),
              length: response.headers.get('Content-Length'),
              etag: response.headers.get('ETag'),
              link: response.headers.get('Link'),
              body: await response.text(),
            })),
          ),
        );
      }
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[0]?.[0]?.type).toBe('application/json; charset=utf-8');
    } finally {
      await checked.close();
      await unchecked.close();
    }
  });
});
