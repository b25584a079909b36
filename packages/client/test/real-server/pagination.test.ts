import type { Pet } from '@petstore/types';
import { describe, expect, it } from 'vitest';
import { PetstoreApiError } from '../../src/index.js';
import { clientOf, realServer, UNKNOWN_KEY } from './support.js';

describe('listAllPets against the real server', () => {
  it('follows the next links across pages and yields every pet once, in id order', async () => {
    const server = await realServer();
    const sent: string[] = [];
    const { client } = clientOf(server, await server.createKey('free'), {
      fetch: (request) => {
        sent.push(new URL(request.url).search);
        return fetch(request);
      },
    });
    const statuses = ['available', 'sold', 'available', 'pending', 'available'] as const;
    for (const [i, status] of statuses.entries()) {
      await client.createPet({ name: `Pet ${i + 1}`, categoryId: 1, status });
    }
    sent.length = 0;

    const all: Pet[] = [];
    for await (const pet of client.listAllPets({ limit: 2 })) all.push(pet);

    expect(all.map((pet) => pet.id)).toEqual([1, 2, 3, 4, 5]);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toBe('?limit=2');
    // Later pages are the links as the server gave them (opaque cursor, same limit).
    expect(sent[1]).toMatch(/^\?limit=2&cursor=[A-Za-z0-9_-]+$/);
  });

  it('keeps the status filter on every page', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));
    const statuses = ['available', 'sold', 'available', 'pending', 'available'] as const;
    for (const [i, status] of statuses.entries()) {
      await client.createPet({ name: `Pet ${i + 1}`, categoryId: 1, status });
    }
    const ids: number[] = [];
    for await (const pet of client.listAllPets({ status: 'available', limit: 1 })) ids.push(pet.id);
    expect(ids).toEqual([1, 3, 5]);
  });

  it('yields nothing when no pet matches', async () => {
    const server = await realServer();
    const { client } = clientOf(server, await server.createKey('free'));
    const all: Pet[] = [];
    for await (const pet of client.listAllPets({ status: 'sold' })) all.push(pet);
    expect(all).toEqual([]);
  });

  it('throws PetstoreApiError with the Error body when a page is refused', async () => {
    const server = await realServer();
    const { client } = clientOf(server, UNKNOWN_KEY);
    const iterator = client.listAllPets();
    const error = await iterator.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PetstoreApiError);
    expect(error).toMatchObject({ code: 'unauthorized', status: 401 });
  });
});
