import type { Pet } from '@petstore/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/rate-limit/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { expectApiHeaders, expectDeprecationHeaders, expectError } from '../support/contract.js';
import { createPet, get } from '../support/requests.js';

let server: TestServer;
let key: string;
let rex: Pet;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey();
  rex = await createPet(server, key, { name: 'Rex', categoryId: 1, status: 'available' });
});
afterAll(() => server.close());

describe('GET /v1/pets/{petId} (deprecated)', () => {
  it('answers 200 with the pet, announcing its deprecation', async () => {
    const response = await get(server, key, `/v1/pets/${rex.id}`);
    expect(response.status).toBe(200);
    expectApiHeaders(response);
    expectDeprecationHeaders(response);
    expect(await response.json()).toEqual(rex);
  });

  it('answers 404 not_found, with the deprecation headers, when no pet has the id', async () => {
    const response = await get(server, key, '/v1/pets/999');
    expectDeprecationHeaders(response);
    const error = await expectError(response, 404, 'not_found');
    expect(error.message).toBe('No pet with id 999.');
  });

  it('answers 400 to an id that is not valid percent-encoding, counted and announced like any', async () => {
    const response = await get(server, key, '/v1/pets/%zz');
    expectApiHeaders(response);
    expectDeprecationHeaders(response);
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message).toBe('The request path is not valid percent-encoding.');
  });

  it('answers 401, with the deprecation headers, without a key', async () => {
    const response = await get(server, undefined, `/v1/pets/${rex.id}`);
    expectApiHeaders(response);
    expectDeprecationHeaders(response);
    await expectError(response, 401, 'unauthorized');
  });

  it.each([
    ['is not a number', 'abc', 'request/params/petId must be integer'],
    ['is a decimal', '1.5', 'request/params/petId must be integer'],
    ['is 2^53', '9007199254740992', 'request/params/petId must be <= 9007199254740991'],
    ['is 2^53 + 1', '9007199254740993', 'request/params/petId must be <= 9007199254740991'],
    ['is −(2^53 + 1)', '-9007199254740993', 'request/params/petId must be >= -9007199254740991'],
  ])('answers 400, with the deprecation headers, when petId %s', async (_case, petId, message) => {
    const response = await get(server, key, `/v1/pets/${petId}`);
    expectDeprecationHeaders(response);
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message).toBe(message);
  });

  it.each(['0x10', '1e3', '01', '%20', '-0'])(
    'answers 400 for petId %s, a number only JavaScript would read',
    async (petId) => {
      const response = await get(server, key, `/v1/pets/${petId}`);
      expectDeprecationHeaders(response);
      const error = await expectError(response, 400, 'invalid_request');
      expect(error.message).toBe(
        'request/params/petId must be an integer within ±9007199254740991 (2^53−1), written in decimal.',
      );
    },
  );

  it.each(['%E0%A4%A', '%'])(
    'answers 400 when petId %s is not valid percent-encoding',
    async (petId) => {
      const error = await expectError(
        await get(server, key, `/v1/pets/${petId}`),
        400,
        'invalid_request',
      );
      expect(error.message).toBe('The request path is not valid percent-encoding.');
    },
  );

  it('answers 429, with the deprecation headers, over the rate limit', async () => {
    const limited = await startTestServer({
      limiter: (clock) => createMemoryRateLimiter({ clock }),
    });
    try {
      const oneAMinute = await limited.createKey('enterprise', { perMinute: 1, perDay: 10 });
      expect((await get(limited, oneAMinute, '/v1/pets/1')).status).toBe(404);
      const response = await get(limited, oneAMinute, '/v1/pets/1');
      expectApiHeaders(response);
      expectDeprecationHeaders(response);
      expect(response.headers.get('Retry-After')).toMatch(/^[1-9]\d*$/);
      await expectError(response, 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });

  it('answers 404 (not a rounded neighbour) for the largest safe id', async () => {
    const response = await get(server, key, '/v1/pets/9007199254740991');
    const error = await expectError(response, 404, 'not_found');
    expect(error.message).toBe('No pet with id 9007199254740991.');
  });
});
