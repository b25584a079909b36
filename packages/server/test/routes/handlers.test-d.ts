import type { Pet } from '@petstore/types';
import { assertType, describe, expectTypeOf, it } from 'vitest';
import type { OperationHandlers } from '../../src/routes/operations.js';
import type { CreatePetResponse, GetPetResponse, ListPetsResponse } from '../../src/routes/pets.js';

declare const createRes: CreatePetResponse;
declare const getRes: GetPetResponse;
declare const listRes: ListPetsResponse;
declare const pet: Pet;

describe('handler responses are typed from the contract', () => {
  it('accept the documented bodies', () => {
    assertType(createRes.status(201).json(pet));
    assertType(getRes.status(200).json({ id: 1, name: 'Rex', categoryId: 1 }));
    assertType(listRes.status(200).json([pet]));
    expectTypeOf(createRes.json).parameter(0).toEqualTypeOf<Pet | undefined>();
  });

  it('reject a field the spec lacks, a missing field, or a wrong type', () => {
    // @ts-expect-error owner is not a field of Pet
    createRes.status(201).json({ id: 1, name: 'Rex', categoryId: 1, owner: 'Ann' });
    // @ts-expect-error id is required in a Pet
    getRes.json({ name: 'Rex', categoryId: 1 });
    // @ts-expect-error status is a PetStatus
    listRes.json([{ id: 1, name: 'Rex', categoryId: 1, status: 'lost' }]);
    // @ts-expect-error a list answers an array, not one pet
    listRes.json(pet);
  });
});

describe('the operations are the contract’s', () => {
  const handler = async (): Promise<void> => {};

  it('need a handler for every operationId, and accept no other name', () => {
    assertType<OperationHandlers>({ listPets: handler, createPet: handler, getPet: handler });
    // @ts-expect-error getPet has no handler
    assertType<OperationHandlers>({ listPets: handler, createPet: handler });
    assertType<OperationHandlers>({
      listPets: handler,
      createPet: handler,
      getPet: handler,
      // @ts-expect-error deletePet is not an operation of the contract
      deletePet: handler,
    });
  });
});
