import { assertType, describe, expectTypeOf, it } from 'vitest';
import type {
  ErrorBody,
  ErrorCode,
  GetPetPath,
  ListPetsQuery,
  NewPet,
  Pet,
  PetStatus,
  RequestBody,
  ResponseBody,
  ResponseStatus,
} from '../src/index.js';

describe('the generated types', () => {
  it('accept a NewPet with or without status', () => {
    assertType<NewPet>({ name: 'Rex', categoryId: 1, status: 'available' });
    assertType<NewPet>({ name: 'Tom', categoryId: 2 });
  });

  it('reject a NewPet with a missing, extra or mistyped field', () => {
    // @ts-expect-error categoryId is required
    assertType<NewPet>({ name: 'Rex' });
    // @ts-expect-error id is assigned by the service, not sent
    assertType<NewPet>({ id: 1, name: 'Rex', categoryId: 1 });
    // @ts-expect-error categoryId is an integer, not a string
    assertType<NewPet>({ name: 'Rex', categoryId: '1' });
    // @ts-expect-error status is one of the PetStatus values
    assertType<NewPet>({ name: 'Rex', categoryId: 1, status: 'lost' });
  });

  it('make Pet a NewPet with a required id', () => {
    expectTypeOf<Pet>().toExtend<NewPet>();
    expectTypeOf<Pet['id']>().toEqualTypeOf<number>();
    // @ts-expect-error a Pet always has its id
    assertType<Pet>({ name: 'Rex', categoryId: 1 });
  });

  it('spell PetStatus and ErrorCode as the description does', () => {
    expectTypeOf<PetStatus>().toEqualTypeOf<'available' | 'pending' | 'sold'>();
    expectTypeOf<ErrorBody['code']>().toEqualTypeOf<ErrorCode>();
    assertType<ErrorBody>({ code: 'not_found', message: 'No pet with id 9.', status: 404 });
    // @ts-expect-error not a documented code
    assertType<ErrorBody>({ code: 'teapot', message: 'no', status: 418 });
  });

  it('type the operations: parameters, bodies and statuses', () => {
    assertType<ListPetsQuery>({ limit: 20, status: 'sold', cursor: 'MjA' });
    // @ts-expect-error limit is a number
    assertType<ListPetsQuery>({ limit: '20' });
    assertType<GetPetPath>({ petId: 10 });
    expectTypeOf<RequestBody<'createPet'>>().toEqualTypeOf<NewPet>();
    expectTypeOf<ResponseBody<'createPet', 201>>().toEqualTypeOf<Pet>();
    expectTypeOf<ResponseBody<'listPets', 200>>().toEqualTypeOf<Pet[]>();
    expectTypeOf<ResponseBody<'getPet', 404>>().toEqualTypeOf<ErrorBody>();
    expectTypeOf<ResponseStatus<'getPet'>>().toEqualTypeOf<200 | 400 | 401 | 404 | 429 | 500>();
    // @ts-expect-error getPet has no 201
    assertType<ResponseBody<'getPet', 201>>({});
  });
});
