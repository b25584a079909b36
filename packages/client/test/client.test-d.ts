import type { ErrorBody, ErrorCode, Pet } from '@petstore/types';
import { describe, expectTypeOf, it } from 'vitest';
import {
  ConditionalCache,
  type CreatePetResult,
  createPetstoreClient,
  type PetstoreResult,
  type RateLimitInfo,
  type RateLimitWindow,
} from '../src/index.js';

const client = createPetstoreClient({
  baseUrl: 'https://api.petstore.example/v1',
  apiKey: 'psk_x',
});

describe('the typed client', () => {
  it('takes only the documented fields of a new pet', () => {
    void client.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
    void client.createPet({ name: 'Tom', categoryId: 2 });
    // @ts-expect-error categoryId is required
    void client.createPet({ name: 'Rex' });
    // @ts-expect-error id is assigned by the service, not sent
    void client.createPet({ id: 1, name: 'Rex', categoryId: 1 });
    // @ts-expect-error categoryId is an integer
    void client.createPet({ name: 'Rex', categoryId: '1' });
    // @ts-expect-error status is one of available, pending, sold
    void client.createPet({ name: 'Rex', categoryId: 1, status: 'lost' });
  });

  it('takes an optional idempotencyKey for createPet and returns it with whether it replayed', async () => {
    const created = await client.createPet(
      { name: 'Rex', categoryId: 1 },
      { idempotencyKey: '8e03978e-40d5-43e8-bc93-6894a57f9324', signal: AbortSignal.timeout(1) },
    );
    expectTypeOf(created).toEqualTypeOf<CreatePetResult>();
    expectTypeOf(created).toExtend<PetstoreResult<Pet>>();
    expectTypeOf(created.idempotencyKey).toEqualTypeOf<string>();
    expectTypeOf(created.replayed).toEqualTypeOf<boolean>();
    // @ts-expect-error the key is a string
    void client.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 42 });
  });

  it('exposes every window of the RateLimit fields next to the tightest one', () => {
    expectTypeOf<RateLimitInfo['windows']>().toEqualTypeOf<RateLimitWindow[]>();
    expectTypeOf<RateLimitWindow>().toEqualTypeOf<{
      policy: string;
      quota: number | undefined;
      windowSeconds: number | undefined;
      remaining: number | undefined;
      reset: Date | undefined;
    }>();
  });

  it('takes only the documented query parameters of listPets', () => {
    void client.listPets();
    void client.listPets({ limit: 10, status: 'sold' });
    // @ts-expect-error limit is a number
    void client.listPets({ limit: '10' });
    // @ts-expect-error status is a PetStatus
    void client.listPets({ status: 'lost' });
    // @ts-expect-error no such parameter
    void client.listPets({ offset: 10 });
  });

  it('takes a numeric pet id', () => {
    void client.getPet(10);
    // @ts-expect-error petId is an integer
    void client.getPet('10');
  });

  it('returns either the success body or the Error body, with the rate-limit state', async () => {
    const result = await client.getPet(10);
    expectTypeOf(result).toEqualTypeOf<PetstoreResult<Pet>>();
    expectTypeOf(result.rateLimit).toEqualTypeOf<RateLimitInfo | undefined>();
    expectTypeOf(result.response).toEqualTypeOf<Response>();
    if (result.error) {
      expectTypeOf(result.error).toEqualTypeOf<ErrorBody>();
      expectTypeOf(result.error.code).toEqualTypeOf<ErrorCode>();
      expectTypeOf(result.data).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(result.data).toEqualTypeOf<Pet>();
    }
    const list = await client.listPets();
    if (!list.error) expectTypeOf(list.data).toEqualTypeOf<Pet[]>();
  });

  it('iterates pets, filtered without a cursor', () => {
    expectTypeOf(client.listAllPets({ status: 'available', limit: 100 })).toEqualTypeOf<
      AsyncGenerator<Pet, void, undefined>
    >();
    // @ts-expect-error the cursor comes from the next links, not from the caller
    void client.listAllPets({ cursor: 'MjA' });
  });

  it('keeps the raw openapi-fetch client typed from the generated paths', async () => {
    const { data } = await client.raw.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
    expectTypeOf(data).toEqualTypeOf<Pet | undefined>();
    // @ts-expect-error no such path in the contract
    void client.raw.GET('/store/orders');
  });

  it('takes the cache as true or a store, and says when a result was not modified', async () => {
    const base = { baseUrl: 'https://api.petstore.example/v1', apiKey: 'psk_x' };
    void createPetstoreClient({ ...base, cache: true });
    void createPetstoreClient({ ...base, cache: new ConditionalCache({ maxEntries: 10 }) });
    // @ts-expect-error a store needs get, set and delete
    void createPetstoreClient({ ...base, cache: { get: () => undefined } });
    expectTypeOf((await client.getPet(1)).notModified).toEqualTypeOf<boolean>();
  });

  it('requires baseUrl and apiKey', () => {
    // @ts-expect-error apiKey is required
    void createPetstoreClient({ baseUrl: 'https://api.petstore.example/v1' });
  });
});
