import { describe, expect, it } from 'vitest';
import { createPetstoreClient } from '../src/index.js';

const base = { baseUrl: 'https://api.example/v1', apiKey: 'psk_test' };

describe('createPetstoreClient options', () => {
  it.each([
    [{ retry: { maxAttempts: 0 } }, 'retry.maxAttempts must be an integer of at least 1'],
    [{ retry: { maxAttempts: 1.5 } }, 'retry.maxAttempts must be an integer of at least 1'],
    [{ retry: { budgetMs: -1 } }, 'retry.budgetMs must be a non-negative number'],
    [{ retry: { baseDelayMs: Number.NaN } }, 'retry.baseDelayMs must be a non-negative number'],
    [{ timeoutMs: 0 }, 'timeoutMs must be a positive number of milliseconds, or false'],
  ])('rejects %j with a RangeError naming the option', (options, message) => {
    expect(() => createPetstoreClient({ ...base, ...options })).toThrow(new RangeError(message));
  });

  it('rejects a missing API key with a TypeError', () => {
    expect(() => createPetstoreClient({ ...base, apiKey: '' })).toThrow(
      new TypeError('apiKey is required: pass the API key the store issued to you'),
    );
  });

  it('rejects a base URL that is not absolute', () => {
    expect(() => createPetstoreClient({ ...base, baseUrl: '/v1' })).toThrow(TypeError);
  });

  it('sends the key as a bearer token to the base URL, without a trailing slash doubling', async () => {
    const seen: Array<{ url: string; authorization: string | null }> = [];
    const client = createPetstoreClient({
      ...base,
      baseUrl: 'https://api.example/v1/',
      timeoutMs: false,
      fetch: async (request) => {
        seen.push({ url: request.url, authorization: request.headers.get('Authorization') });
        return Response.json([]);
      },
    });
    await client.listPets({ limit: 5 });
    expect(seen).toEqual([
      { url: 'https://api.example/v1/pets?limit=5', authorization: 'Bearer psk_test' },
    ]);
  });

  it.each(['', 'has space', 'quote"', 'back\\slash', 'é', 'x'.repeat(256)])(
    'refuses the idempotencyKey %j of createPet before sending anything',
    async (idempotencyKey) => {
      let sent = 0;
      const client = createPetstoreClient({
        ...base,
        fetch: async () => {
          sent++;
          return Response.json({});
        },
      });
      await expect(
        client.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey }),
      ).rejects.toThrow(
        new TypeError(
          'idempotencyKey must be 1 to 255 printable ASCII characters without space, " or \\ (a random UUID is best)',
        ),
      );
      expect(sent).toBe(0);
    },
  );
});
