import { assertType, describe, expectTypeOf, it } from 'vitest';
import type {
  Error as DeprecatedError,
  ErrorBody,
  ErrorCode,
  GeneralErrorBody,
  GetPetPath,
  ListPetsQuery,
  NewPet,
  operations,
  Pet,
  PetStatus,
  RequestBody,
  ResponseBody,
  ResponseStatus,
  ServiceUnavailableErrorBody,
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

  it('spell PetStatus as the description does', () => {
    expectTypeOf<PetStatus>().toEqualTypeOf<'available' | 'pending' | 'sold'>();
  });

  it('make ErrorCode every code and ErrorBody every error body, of every status', () => {
    expectTypeOf<ErrorCode>().toEqualTypeOf<
      | 'invalid_request'
      | 'unauthorized'
      | 'not_found'
      | 'method_not_allowed'
      | 'payload_too_large'
      | 'unsupported_media_type'
      | 'rate_limited'
      | 'key_banned'
      | 'internal_error'
      | 'idempotency_key_in_use'
      | 'idempotency_key_reused'
      | 'service_unavailable'
    >();
    expectTypeOf<ErrorBody['code']>().toEqualTypeOf<ErrorCode>();
    assertType<ErrorBody>({ code: 'not_found', message: 'No pet with id 9.', status: 404 });
    assertType<ErrorBody>({ code: 'service_unavailable', message: 'Later.', status: 503 });
    // @ts-expect-error not a documented code
    assertType<ErrorBody>({ code: 'teapot', message: 'no', status: 418 });
    // @ts-expect-error a code of 1.1 is not in the body of the statuses of 1.0
    assertType<GeneralErrorBody>({ code: 'service_unavailable', message: 'x', status: 503 });
    expectTypeOf<ServiceUnavailableErrorBody['code']>().toEqualTypeOf<'service_unavailable'>();
    // A server can build any error body from a code, a message and a status.
    const code = 'idempotency_key_reused' as ErrorCode;
    assertType<ErrorBody>({ code, message: 'Reused.', status: 422 });
  });

  it('keep Error as a deprecated alias of ErrorBody', () => {
    expectTypeOf<DeprecatedError>().toEqualTypeOf<ErrorBody>();
  });

  it('type the operations: parameters, bodies and statuses', () => {
    assertType<ListPetsQuery>({ limit: 20, status: 'sold', cursor: 'MjA' });
    // @ts-expect-error limit is a number
    assertType<ListPetsQuery>({ limit: '20' });
    assertType<GetPetPath>({ petId: 10 });
    type CreatePetHeaders = NonNullable<operations['createPet']['parameters']['header']>;
    assertType<CreatePetHeaders>({ 'Idempotency-Key': '"8e03978e"' });
    assertType<CreatePetHeaders>({});
    expectTypeOf<RequestBody<'createPet'>>().toEqualTypeOf<NewPet>();
    expectTypeOf<ResponseBody<'createPet', 201>>().toEqualTypeOf<Pet>();
    expectTypeOf<ResponseBody<'listPets', 200>>().toEqualTypeOf<Pet[]>();
    expectTypeOf<ResponseBody<'getPet', 404>>().toEqualTypeOf<GeneralErrorBody>();
    expectTypeOf<ResponseBody<'getPet', 503>>().toEqualTypeOf<ServiceUnavailableErrorBody>();
    expectTypeOf<ResponseBody<'createPet', 409>['code']>().toEqualTypeOf<
      'idempotency_key_in_use' | 'idempotency_key_reused'
    >();
    expectTypeOf<ResponseBody<'getPet', 304>>().toEqualTypeOf<never>();
    expectTypeOf<ResponseStatus<'getPet'>>().toEqualTypeOf<
      200 | 304 | 400 | 401 | 404 | 429 | 500 | 503
    >();
    // @ts-expect-error getPet has no 201
    assertType<ResponseBody<'getPet', 201>>({});
  });
});
