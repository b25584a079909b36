import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPetstoreClient, type DeprecationNotice } from '../../src/index.js';
import { clientOf, realServer } from './support.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('deprecation notices from the real server', () => {
  it('calls onDeprecation with the sunset, the successor and the documentation of getPet', async () => {
    const server = await realServer();
    const notices: DeprecationNotice[] = [];
    const { client } = clientOf(server, await server.createKey('free'), {
      onDeprecation: (notice) => notices.push(notice),
    });
    await client.createPet({ name: 'Rex', categoryId: 1 });
    await client.getPet(1);
    await client.getPet(999); // the 404 of a deprecated operation announces it too

    expect(notices).toHaveLength(2);
    expect(notices[0]).toEqual({
      operation: 'GET /pets/{petId}',
      deprecatedSince: new Date(1795219200 * 1000),
      sunset: new Date('2030-12-05T00:00:00Z'),
      successor: new URL(`${server.url}/v1/pets`),
      documentation: new URL(`${server.url}/docs#tag/Pets/operation/getPet`),
    });
  });

  it('does not call onDeprecation for operations that are not deprecated', async () => {
    const server = await realServer();
    const notices: DeprecationNotice[] = [];
    const { client } = clientOf(server, await server.createKey('free'), {
      onDeprecation: (notice) => notices.push(notice),
    });
    await client.createPet({ name: 'Rex', categoryId: 1 });
    await client.listPets();
    expect(notices).toEqual([]);
  });

  it('warns once per operation by default, naming the sunset date and the replacement', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const server = await realServer();
    const key = await server.createKey('free');
    // Two clients with the default handler: the warning is once per process, not per client.
    const a = createPetstoreClient({ baseUrl: server.baseUrl, apiKey: key, timeoutMs: false });
    const b = createPetstoreClient({ baseUrl: server.baseUrl, apiKey: key, timeoutMs: false });
    await a.createPet({ name: 'Rex', categoryId: 1 });
    await a.getPet(1);
    await a.getPet(1);
    await b.getPet(1);

    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      `Pet Store API: GET /pets/{petId} is deprecated and will be removed on 2030-12-05; use ${server.url}/v1/pets instead (see ${server.url}/docs#tag/Pets/operation/getPet).`,
    );
  });
});
