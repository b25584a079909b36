import { describe, expect, it } from 'vitest';
import { createPetstoreClient, PetstoreClientError } from '../src/index.js';

// Pure units of the guards in listAllPets, against a scripted fetch standing in for a
// misbehaving server (ours never sends such links; test/real-server covers the real one).

function serverSending(link: string) {
  const requested: string[] = [];
  const fetch = async (request: Request) => {
    requested.push(request.url);
    return new Response(JSON.stringify([{ id: requested.length, name: 'Rex', categoryId: 1 }]), {
      status: 200,
      headers: { 'Content-Type': 'application/json', Link: link },
    });
  };
  const client = createPetstoreClient({
    baseUrl: 'https://api.example/v1',
    apiKey: 'psk_test',
    fetch,
    timeoutMs: false,
  });
  return { client, requested };
}

async function drain(iterator: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

describe('listAllPets guards', () => {
  it('refuses a next link to another origin instead of sending the key there', async () => {
    const { client, requested } = serverSending(
      '<https://evil.example/v1/pets?cursor=MQ>; rel="next"',
    );
    const error = await drain(client.listAllPets()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PetstoreClientError);
    expect((error as Error).message).toBe(
      'Refusing to follow a next link to another origin (https://evil.example): it would receive the API key',
    );
    expect(requested).toEqual(['https://api.example/v1/pets']);
  });

  it('stops when a next link repeats a page already read', async () => {
    const { client, requested } = serverSending('</v1/pets?cursor=MQ>; rel="next"');
    await expect(drain(client.listAllPets())).rejects.toThrow(
      'The next link repeats a page already read; stopping',
    );
    expect(requested).toEqual([
      'https://api.example/v1/pets',
      'https://api.example/v1/pets?cursor=MQ',
    ]);
  });
});
