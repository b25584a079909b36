import { describe, expect, it } from 'vitest';
import { clientOf, realServer, UNKNOWN_KEY } from './support.js';

// The permissive test limiter reports the first request of a fresh minute and day; the test
// clock starts at 2030-01-01T00:00:00Z, so the minute resets at 00:01:00 and the day at
// midnight. X-RateLimit-* describe the minute; RateLimit-Policy and RateLimit both windows.
const FREE_WINDOW = {
  limit: 60,
  remaining: 59,
  reset: new Date('2030-01-01T00:01:00Z'),
  windows: [
    {
      policy: 'minute',
      quota: 60,
      windowSeconds: 60,
      remaining: 59,
      reset: new Date('2030-01-01T00:01:00Z'),
    },
    {
      policy: 'day',
      quota: 1000,
      windowSeconds: 86_400,
      remaining: 999,
      reset: new Date('2030-01-02T00:00:00Z'),
    },
  ],
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the client against the real server', () => {
  it('creates a pet and returns it with its assigned id, its Idempotency-Key and the rate-limit state', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));
    const { data, error, response, rateLimit, idempotencyKey, replayed, notModified } =
      await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(error).toBeUndefined();
    expect(response.status).toBe(201);
    expect(data).toEqual({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });
    expect(idempotencyKey).toMatch(UUID);
    expect({ replayed, notModified }).toEqual({ replayed: false, notModified: false });
    expect(rateLimit).toEqual(FREE_WINDOW);
    expect(client.rateLimit).toEqual(FREE_WINDOW);
  });

  it('keeps an omitted status absent', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));
    const { data } = await client.createPet({ name: 'Tom', categoryId: 2 });
    expect(data).toEqual({ id: 1, name: 'Tom', categoryId: 2 });
  });

  it('lists pets filtered by status and limited in count', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));
    await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
    await client.createPet({ name: 'Tom', categoryId: 2, status: 'sold' });
    await client.createPet({ name: 'Polly', categoryId: 3, status: 'available' });

    const available = await client.listPets({ status: 'available' });
    expect(available.data).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      { id: 3, name: 'Polly', categoryId: 3, status: 'available' },
    ]);
    const first = await client.listPets({ limit: 1 });
    expect(first.data).toEqual([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
    expect(first.response.headers.get('Link')).toMatch(/rel="next"/);
  });

  it('gets one pet by id', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));
    await client.createPet({ name: 'Rex', categoryId: 1 });
    const { data, rateLimit } = await client.getPet(1);
    expect(data).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
    expect(rateLimit).toEqual(FREE_WINDOW);
  });

  it('returns 404 not_found as an Error body result for an unknown pet', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));
    const { data, error, response } = await client.getPet(999);
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toEqual({ code: 'not_found', message: expect.any(String), status: 404 });
  });

  it('returns 400 invalid_request naming the field for an invalid pet', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));
    const { error, response } = await client.createPet({ name: '', categoryId: 1 });
    expect(response.status).toBe(400);
    expect(error?.code).toBe('invalid_request');
    expect(error?.status).toBe(400);
    expect(error?.message).toContain('name');
  });

  it('returns 400 for an id beyond ±(2^53−1) instead of letting it be rounded', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));
    const { error } = await client.createPet({ name: 'Big', categoryId: 2 ** 53 });
    expect(error).toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('returns 401 unauthorized for a key the server does not know, with rate-limit headers', async () => {
    const server = await realServer();
    const { client } = clientOf(server, UNKNOWN_KEY);
    const { error, response, rateLimit } = await client.listPets();
    expect(response.status).toBe(401);
    expect(error).toEqual({
      code: 'unauthorized',
      message: 'Missing or invalid API key: send Authorization: Bearer <API_KEY>.',
      status: 401,
    });
    expect(rateLimit).toEqual(FREE_WINDOW);
  });

  it('gives full control through the raw openapi-fetch client, with the same auth', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));
    await client.createPet({ name: 'Rex', categoryId: 1 });
    const { data } = await client.raw.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
    expect(data).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
  });
});
