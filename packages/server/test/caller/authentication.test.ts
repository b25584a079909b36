import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/keys/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { expectApiHeaders, expectError } from '../support/contract.js';
import { get } from '../support/requests.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const listWith = (authorization?: string) =>
  fetch(
    `${server.baseUrl}/pets`,
    authorization ? { headers: { Authorization: authorization } } : {},
  );

describe('bearer API keys', () => {
  it('lets a request with an active key through', async () => {
    const key = await server.createKey('free');
    const response = await get(server, key, '/v1/pets');
    expect(response.status).toBe(200);
  });

  it('accepts the Bearer scheme in any letter case (RFC 6750, RFC 9110 §11.1)', async () => {
    const key = await server.createKey('free');
    expect((await listWith(`bearer ${key}`)).status).toBe(200);
    expect((await listWith(`BEARER ${key}`)).status).toBe(200);
  });

  it.each([
    ['the Authorization header is missing', undefined],
    ['the scheme is not Bearer', 'Basic dXNlcjpwYXNz'],
    ['the token is empty', 'Bearer '],
    ['the token is not a psk_ key', 'Bearer abc'],
    ['the token is a psk_ key of the wrong length', `Bearer psk_${'A'.repeat(42)}`],
    ['the token has characters outside base64url', `Bearer psk_${'+'.repeat(43)}`],
    ['the key is well formed but unknown', `Bearer ${generateApiKey().raw}`],
  ])('answers 401 with rate-limit headers when %s', async (_case, authorization) => {
    const response = await listWith(authorization);
    expectApiHeaders(response);
    const error = await expectError(response, 401, 'unauthorized');
    expect(error.message).toBe('Missing or invalid API key: send Authorization: Bearer <API_KEY>.');
  });

  it('answers 401 once a key is revoked', async () => {
    const key = await server.createKey('pro');
    expect((await get(server, key, '/v1/pets')).status).toBe(200);
    const record = (await server.storage.keys.list()).at(-1)!;
    expect(await server.storage.keys.revoke(record.id)).toBe(true);
    await expectError(await get(server, key, '/v1/pets'), 401, 'unauthorized');
  });

  it.each([
    ['a body the contract refuses', 'application/json', JSON.stringify({ id: 1 })],
    ['malformed JSON', 'application/json', '{"name":'],
    ['a body over the 100 KiB limit', 'application/json', `"${'x'.repeat(200 * 1024)}"`],
    ['a body that is not JSON', 'text/plain', 'hello'],
  ])('checks the key before the body: %s without a key gets 401', async (_case, type, body) => {
    const response = await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: { 'Content-Type': type },
      body,
    });
    expectApiHeaders(response);
    await expectError(response, 401, 'unauthorized');
  });

  it.each([
    ['no credential', undefined, 'Bearer realm="petstore"'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'Bearer realm="petstore", error="invalid_token"'],
    ['a malformed key', 'Bearer abc', 'Bearer realm="petstore", error="invalid_token"'],
    [
      'an unknown key',
      `Bearer ${generateApiKey().raw}`,
      'Bearer realm="petstore", error="invalid_token"',
    ],
  ])(
    'challenges with WWW-Authenticate on a 401 to %s (RFC 6750 §3)',
    async (_case, auth, challenge) => {
      for (const path of ['/pets', '/pets/1', '/owners']) {
        const response = await fetch(
          `${server.baseUrl}${path}`,
          auth ? { headers: { Authorization: auth } } : {},
        );
        expect(response.status).toBe(401);
        expect(response.headers.get('WWW-Authenticate')).toBe(challenge);
      }
    },
  );

  it('counts callers without a valid key at the Free plan numbers', async () => {
    const response = await listWith('Bearer abc');
    expect(response.headers.get('X-RateLimit-Limit')).toBe('60');
  });

  it('counts a keyed caller at its plan numbers', async () => {
    const key = await server.createKey('business');
    const response = await get(server, key, '/v1/pets');
    expect(response.headers.get('X-RateLimit-Limit')).toBe('1000');
  });
});
