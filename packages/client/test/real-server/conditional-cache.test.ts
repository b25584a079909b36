import { describe, expect, it } from 'vitest';
import { ConditionalCache, type PetstoreClient } from '../../src/index.js';
import { clientOf, limitedServer, realServer } from './support.js';

// The opt-in cache against the real server: what goes over the wire is recorded below the
// client (each attempt's If-None-Match and the status the server answered).

interface Exchange {
  url: string;
  ifNoneMatch: string | null;
  status: number;
  etag: string | null;
}

function wire() {
  const exchanges: Exchange[] = [];
  const fetch = async (request: Request) => {
    const response = await globalThis.fetch(request);
    exchanges.push({
      url: new URL(request.url).pathname + new URL(request.url).search,
      ifNoneMatch: request.headers.get('If-None-Match'),
      status: response.status,
      etag: response.headers.get('ETag'),
    });
    return response;
  };
  return { exchanges, fetch };
}

async function names(client: PetstoreClient): Promise<string[]> {
  const all: string[] = [];
  for await (const pet of client.listAllPets({ limit: 1 })) all.push(pet.name);
  return all;
}

describe('the conditional-GET cache against the real server', () => {
  it('revalidates getPet with If-None-Match and returns the stored pet on a 304, with fresh rate limits', async () => {
    const server = await limitedServer();
    const key = await server.createKey('free');
    const { exchanges, fetch } = wire();
    const { client } = clientOf(server, key, { cache: true, fetch });
    await client.createPet({ name: 'Rex', categoryId: 1 });

    const first = await client.getPet(1);
    const second = await client.getPet(1);

    const [, get1, get2] = exchanges;
    expect(get1).toMatchObject({ url: '/v1/pets/1', ifNoneMatch: null, status: 200 });
    expect(get2).toMatchObject({ url: '/v1/pets/1', ifNoneMatch: get1?.etag, status: 304 });
    expect(first).toMatchObject({
      data: { id: 1, name: 'Rex', categoryId: 1 },
      notModified: false,
    });
    expect(second).toMatchObject({ data: first.data, notModified: true });
    expect(second.response.status).toBe(200);
    expect(second.response.headers.get('ETag')).toBe(get1?.etag);
    expect([first.rateLimit?.remaining, second.rateLimit?.remaining]).toEqual([58, 57]);
  });

  it('keeps each listPets page apart and asks again for every page, taking the changed ones', async () => {
    const server = await realServer();
    const { exchanges, fetch } = wire();
    const { client } = clientOf(server, await server.createKey('free'), { cache: true, fetch });
    await client.createPet({ name: 'Rex', categoryId: 1 });
    await client.createPet({ name: 'Tom', categoryId: 1 });
    exchanges.length = 0;

    expect(await names(client)).toEqual(['Rex', 'Tom']);
    expect(await names(client)).toEqual(['Rex', 'Tom']);
    await client.createPet({ name: 'Polly', categoryId: 1 }); // page 2 gets a next link
    expect(await names(client)).toEqual(['Rex', 'Tom', 'Polly']);

    expect(exchanges.filter((e) => e.url.startsWith('/v1/pets?')).map((e) => e.status)).toEqual([
      200, 200, 304, 304, 304, 200, 200,
    ]);
  });

  it('never sends one API key the ETag another key stored in a shared cache', async () => {
    const server = await realServer();
    const cache = new ConditionalCache();
    const a = wire();
    const b = wire();
    const alice = clientOf(server, await server.createKey('free'), { cache, fetch: a.fetch });
    const bob = clientOf(server, await server.createKey('free'), { cache, fetch: b.fetch });
    await alice.client.createPet({ name: 'Rex', categoryId: 1 });
    await alice.client.listPets();

    await bob.client.listPets();
    await bob.client.listPets();

    expect(
      b.exchanges.map(({ ifNoneMatch, status }) => ({ sent: ifNoneMatch !== null, status })),
    ).toEqual([
      { sent: false, status: 200 },
      { sent: true, status: 304 },
    ]);
    expect(cache.size).toBe(2);
  });

  it('sends no If-None-Match without the cache option', async () => {
    const server = await realServer();
    const { exchanges, fetch } = wire();
    const { client } = clientOf(server, await server.createKey('free'), { fetch });
    await client.listPets();
    const again = await client.listPets();
    expect(exchanges.map((e) => [e.ifNoneMatch, e.status])).toEqual([
      [null, 200],
      [null, 200],
    ]);
    expect(again.notModified).toBe(false);
  });
});
