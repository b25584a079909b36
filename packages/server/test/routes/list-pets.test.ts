import type { NewPet, Pet } from '@petstore/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/routes/cursor.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { expectApiHeaders, expectError } from '../support/contract.js';
import { createPet, get, nextLink, walkPages } from '../support/requests.js';

let server: TestServer;
let key: string;
/** 25 pets: statuses cycle available, pending, sold, (none). */
let pets: Pet[];

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey('pro');
  const statuses = ['available', 'pending', 'sold', undefined] as const;
  pets = [];
  for (let i = 0; i < 25; i++) {
    const status = statuses[i % 4];
    const draft: NewPet = { name: `Pet ${i}`, categoryId: i, ...(status ? { status } : {}) };
    pets.push(await createPet(server, key, draft));
  }
});
afterAll(() => server.close());

describe('GET /v1/pets', () => {
  it('answers the first 20 pets by id ascending, with a next link, by default', async () => {
    const response = await get(server, key, '/v1/pets');
    expect(response.status).toBe(200);
    expectApiHeaders(response);
    expect(await response.json()).toEqual(pets.slice(0, 20));
    expect(nextLink(response)).toBe(`/v1/pets?limit=20&cursor=${encodeCursor(pets[19]!.id)}`);
  });

  it('answers at most limit pets', async () => {
    const response = await get(server, key, '/v1/pets?limit=3');
    expect(await response.json()).toEqual(pets.slice(0, 3));
  });

  it('keeps only pets with the status asked for, and keeps the status in the next link', async () => {
    const sold = pets.filter((pet) => pet.status === 'sold');
    const response = await get(server, key, '/v1/pets?status=sold&limit=2');
    expect(await response.json()).toEqual(sold.slice(0, 2));
    expect(nextLink(response)).toBe(
      `/v1/pets?limit=2&status=sold&cursor=${encodeCursor(sold[1]!.id)}`,
    );
  });

  it('walks every page by following Link rel="next" until there is none', async () => {
    const { pets: walked, paths } = await walkPages(server, key, '/v1/pets?limit=10');
    expect(walked).toEqual(pets);
    expect(paths).toHaveLength(3);
  });

  it('walks a filtered list page by page without gaps or repeats', async () => {
    const pending = pets.filter((pet) => pet.status === 'pending');
    const { pets: walked } = await walkPages(server, key, '/v1/pets?limit=2&status=pending');
    expect(walked).toEqual(pending);
  });

  it('sends no next link when the page holds the last pet', async () => {
    const response = await get(server, key, '/v1/pets?limit=25');
    expect(await response.json()).toEqual(pets);
    expect(response.headers.get('Link')).toBeNull();
  });

  it('answers an empty array when nothing matches', async () => {
    const empty = await startTestServer();
    try {
      const emptyKey = await empty.createKey();
      const response = await get(empty, emptyKey, '/v1/pets?status=available');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([]);
      expect(response.headers.get('Link')).toBeNull();
    } finally {
      await empty.close();
    }
  });

  it.each([
    ['limit is 0', 'limit=0', 'request/query/limit must be >= 1'],
    ['limit is 101', 'limit=101', 'request/query/limit must be <= 100'],
    [
      'limit is not a number',
      'limit=ten',
      'request/query/limit must be an integer, written in decimal digits.',
    ],
    [
      'status is not a PetStatus',
      'status=lost',
      'request/query/status must be equal to one of the allowed values: available, pending, sold',
    ],
    [
      'the query has an unknown parameter',
      'sort=name',
      'request/query/sort is not allowed: not a query parameter of this operation',
    ],
    [
      'the cursor was not issued by the service',
      `cursor=${encodeCursor(1)}x`,
      'request/query/cursor is not a cursor this service issued: follow the Link header of the previous page.',
    ],
    [
      'the cursor has characters a cursor never has',
      'cursor=a%2Bb',
      'request/query/cursor is not a cursor this service issued: follow the Link header of the previous page.',
    ],
  ])('answers 400 naming the parameter when %s', async (_case, query, message) => {
    const response = await get(server, key, `/v1/pets?${query}`);
    expectApiHeaders(response);
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message).toBe(message);
  });
});

describe('listPets numbers', () => {
  it.each([
    'Infinity',
    '-Infinity',
    '1e400',
    '-1e400',
    '5e1',
    '0x10',
    '1.5',
    '+5',
    ' 5',
    '0',
    '101',
  ])('answers 400 naming limit for limit=%s', async (limit) => {
    const response = await get(server, key, `/v1/pets?limit=${encodeURIComponent(limit)}`);
    expectApiHeaders(response);
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message).toMatch(/^request\/query\/limit /);
  });
});
