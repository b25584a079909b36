import { connect } from 'node:net';
import type { Pet } from '@petstore/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { expectApiHeaders, expectError } from '../support/contract.js';
import { authorized, get, postPet, walkPages } from '../support/requests.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey();
});
afterAll(() => server.close());

describe('POST /v1/pets', () => {
  it('answers 201 with the stored pet and its server-assigned id', async () => {
    const response = await postPet(server, key, {
      name: 'Rex',
      categoryId: 1,
      status: 'available',
    });
    expect(response.status).toBe(201);
    expectApiHeaders(response);
    const pet = (await response.json()) as Pet;
    expect(pet).toEqual({
      id: expect.any(Number),
      name: 'Rex',
      categoryId: 1,
      status: 'available',
    });
    expect(Number.isSafeInteger(pet.id) && pet.id >= 1).toBe(true);
    expect(await (await get(server, key, `/v1/pets/${pet.id}`)).json()).toEqual(pet);
  });

  it('keeps an omitted status absent, in the answer and in the store', async () => {
    const response = await postPet(server, key, { name: 'Tom', categoryId: 2 });
    const pet = (await response.json()) as Pet;
    expect(pet).toEqual({ id: pet.id, name: 'Tom', categoryId: 2 });
    expect('status' in pet).toBe(false);
    expect(await server.storage.pets.get(pet.id)).toEqual({
      id: pet.id,
      name: 'Tom',
      categoryId: 2,
    });
  });

  it('accepts categoryId at ±(2^53−1) exactly', async () => {
    for (const categoryId of [9007199254740991, -9007199254740991]) {
      const response = await postPet(server, key, `{"name":"Edge","categoryId":${categoryId}}`);
      expect(response.status).toBe(201);
      expect(((await response.json()) as Pet).categoryId).toBe(categoryId);
    }
  });

  it.each([
    ['name is missing', { categoryId: 1 }, "request/body must have required property 'name'"],
    [
      'categoryId is missing',
      { name: 'Rex' },
      "request/body must have required property 'categoryId'",
    ],
    [
      'id is sent',
      { id: 7, name: 'Rex', categoryId: 1 },
      'request/body/id is not allowed: the body must not have additional properties',
    ],
    [
      'an unknown property is sent',
      { name: 'Rex', categoryId: 1, colour: 'brown' },
      'request/body/colour is not allowed: the body must not have additional properties',
    ],
    ['name is not a string', { name: 5, categoryId: 1 }, 'request/body/name must be string'],
    [
      'name is empty',
      { name: '', categoryId: 1 },
      'request/body/name must NOT have fewer than 1 characters',
    ],
    [
      'name is longer than 255 characters',
      { name: 'x'.repeat(256), categoryId: 1 },
      'request/body/name must NOT have more than 255 characters',
    ],
    [
      'name has a NUL character',
      { name: 'Re\u0000x', categoryId: 1 },
      'request/body/name must not contain control characters (U+0000 to U+001F, U+007F)',
    ],
    [
      'name has a line break',
      { name: 'Rex\n', categoryId: 1 },
      'request/body/name must not contain control characters (U+0000 to U+001F, U+007F)',
    ],
    [
      'categoryId is not an integer',
      { name: 'Rex', categoryId: 1.5 },
      'request/body/categoryId must be integer',
    ],
    [
      'categoryId is a string',
      { name: 'Rex', categoryId: '1' },
      'request/body/categoryId must be integer',
    ],
    [
      'status is not a PetStatus',
      { name: 'Rex', categoryId: 1, status: 'lost' },
      'request/body/status must be equal to one of the allowed values: available, pending, sold',
    ],
    ['the body is an array', [], 'request/body must be object'],
  ])('answers 400 naming the field when %s', async (_case, body, message) => {
    const response = await postPet(server, key, body);
    expectApiHeaders(response);
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message).toBe(message);
  });

  it.each([
    ['2^53', '9007199254740992', 'request/body/categoryId must be <= 9007199254740991'],
    ['2^53 + 1', '9007199254740993', 'request/body/categoryId must be <= 9007199254740991'],
    ['−(2^53 + 1)', '-9007199254740993', 'request/body/categoryId must be >= -9007199254740991'],
  ])('answers 400 for categoryId %s instead of rounding it', async (_case, raw, message) => {
    const before = await server.storage.pets.list({ limit: 1000 });
    const response = await postPet(server, key, `{"name":"Big","categoryId":${raw}}`);
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message).toBe(message);
    expect(await server.storage.pets.list({ limit: 1000 })).toEqual(before);
  });

  it('answers 400 when the body is not well-formed JSON', async () => {
    const response = await postPet(server, key, '{"name": "Rex",');
    expectApiHeaders(response);
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message).toBe('request/body is not well-formed JSON.');
  });

  it.each(['42', '"Rex"', 'null', 'true', '[1]'])(
    'answers 400 saying the body must be an object (not that it is malformed) for the JSON %s',
    async (body) => {
      const response = await postPet(server, key, body);
      expectApiHeaders(response);
      const error = await expectError(response, 400, 'invalid_request');
      expect(error.message).toBe('request/body must be object');
    },
  );

  it('answers 400 to a body that is not UTF-8, and stores nothing (it would become U+FFFD)', async () => {
    const before = await server.storage.pets.list({ limit: 1000 });
    const response = await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: authorized(key, { 'Content-Type': 'application/json' }),
      body: Buffer.concat([
        Buffer.from('{"name":"'),
        Buffer.from([0xff, 0x20]),
        Buffer.from('","categoryId":1}'),
      ]),
    });
    expectApiHeaders(response);
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message).toBe('request/body is not valid UTF-8.');
    expect(await server.storage.pets.list({ limit: 1000 })).toEqual(before);
  });

  // The body parser is skipped for a request with neither Content-Length nor
  // Transfer-Encoding (it has no body); a chunked body has no Content-Length and is still read.
  it('creates from a chunked body, which has no Content-Length', async () => {
    const text = JSON.stringify({ name: 'Chunk', categoryId: 2 });
    const response = await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: authorized(key, { 'Content-Type': 'application/json' }),
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text.slice(0, 7)));
          controller.enqueue(new TextEncoder().encode(text.slice(7)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: 'Chunk', categoryId: 2 });
  });

  it('answers 400 to a JSON create without a body (neither header), and stores nothing', async () => {
    const before = await server.storage.pets.list({ limit: 1000 });
    // Written on a socket: fetch would add Content-Length: 0.
    const { hostname, port } = new URL(server.baseUrl);
    const socket = connect(Number(port), hostname);
    socket.end(
      'POST /v1/pets HTTP/1.1\r\n' +
        `Host: ${hostname}:${port}\r\n` +
        `Authorization: Bearer ${key}\r\n` +
        'Content-Type: application/json\r\n' +
        'Connection: close\r\n\r\n',
    );
    let raw = '';
    for await (const chunk of socket) raw += String(chunk);
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(body)).toMatchObject({
      code: 'invalid_request',
      message: "request must have required property 'body'",
    });
    expect(await server.storage.pets.list({ limit: 1000 })).toEqual(before);
  });

  it('answers 400, not 500, to a body nested 20,000 levels deep', async () => {
    const deep = `{"name":"Rex","categoryId":1,"id":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const error = await expectError(await postPet(server, key, deep), 400, 'invalid_request');
    expect(error.message).toBe(
      'request/body/id is not allowed: the body must not have additional properties',
    );
  });

  it('keeps an error message within the contract’s 1,024 characters, whatever the request quotes', async () => {
    const response = await postPet(server, key, {
      name: 'Rex',
      categoryId: 1,
      ['a'.repeat(30_000)]: 1,
    });
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message.length).toBeLessThanOrEqual(1024);
    expect(error.message).toMatch(/^request\/body\/aaaa.*…$/);
  });

  it('answers 400 when the body does not match its Content-Encoding', async () => {
    const response = await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: authorized(key, { 'Content-Type': 'application/json', 'Content-Encoding': 'br' }),
      body: '{"name":"Rex","categoryId":1}',
    });
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message).toBe('The request is invalid: Decompression failed.');
  });

  it('stores any name of 1 to 255 characters exactly, emoji and accents included', async () => {
    for (const name of ['R', 'Rex 🐕', 'Zoë Ångström', 'x'.repeat(255)]) {
      const response = await postPet(server, key, { name, categoryId: 1 });
      expect(response.status).toBe(201);
      const pet = (await response.json()) as Pet;
      expect(pet.name).toBe(name);
      expect((await server.storage.pets.get(pet.id))?.name).toBe(name);
    }
  });

  it('answers 413 when the body exceeds 100 KiB', async () => {
    const response = await postPet(server, key, { name: 'x'.repeat(102_400), categoryId: 1 });
    expectApiHeaders(response);
    const error = await expectError(response, 413, 'payload_too_large');
    expect(error.message).toBe('The request body exceeds the limit of 102400 bytes.');
  });

  it('answers 415 naming the media type when the body is not JSON', async () => {
    const response = await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: authorized(key, { 'Content-Type': 'text/plain' }),
      body: 'name=Rex',
    });
    expectApiHeaders(response);
    const error = await expectError(response, 415, 'unsupported_media_type');
    expect(error.message).toBe('Unsupported media type text/plain: send application/json.');
  });

  it('answers 415 when the body has no content type at all', async () => {
    const response = await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: authorized(key),
    });
    await expectError(response, 415, 'unsupported_media_type');
  });

  it('gives 200 concurrent creates 200 distinct ids, all listed', async () => {
    const fresh = await startTestServer();
    try {
      const freshKey = await fresh.createKey('enterprise');
      const responses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          postPet(fresh, freshKey, { name: `Pet ${i}`, categoryId: i }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(200).fill(201));
      const created = (await Promise.all(responses.map((r) => r.json()))) as Pet[];
      const ids = created.map((pet) => pet.id);
      expect(new Set(ids).size).toBe(200);
      const { pets: listed, paths } = await walkPages(fresh, freshKey, '/v1/pets?limit=100');
      expect(paths).toHaveLength(2);
      expect(listed.map((pet) => pet.id)).toEqual([...ids].sort((a, b) => a - b));
    } finally {
      await fresh.close();
    }
  });
});
