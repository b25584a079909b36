/**
 * Friendly names for the types generated from the Pet Store OpenAPI description.
 * Everything here is derived from `./schema.ts`; nothing is written by hand.
 *
 * @example
 * ```ts
 * import type { NewPet, Pet } from '@petstore/types';
 * const draft: NewPet = { name: 'Rex', categoryId: 1, status: 'available' };
 * ```
 */
import type { components, operations } from './schema.js';

export type { components, operations, paths } from './schema.js';

type Schemas = components['schemas'];

/** An animal of the catalogue, as the service returns it. */
export type Pet = Schemas['Pet'];
/** The body of `createPet`: an animal to add (the service assigns `id`). */
export type NewPet = Schemas['NewPet'];
/** Availability status of an animal. */
export type PetStatus = Schemas['PetStatus'];
/** The body of the error responses of API 1.0's statuses (400, 401, 404, 405, 413, 415, 429, 500). */
export type GeneralErrorBody = Schemas['ErrorBody'];
/** The body of `409` and `422` from `createPet` (an `Idempotency-Key` refused). */
export type IdempotencyErrorBody = Schemas['IdempotencyErrorBody'];
/** The body of `503` (the store cannot be reached). */
export type ServiceUnavailableErrorBody = Schemas['ServiceUnavailableErrorBody'];
/**
 * The body of every error response, whatever its status: `code`, `message`, `status`.
 * Narrow on `code` (or `status`) to tell them apart.
 */
export type ErrorBody = GeneralErrorBody | IdempotencyErrorBody | ServiceUnavailableErrorBody;
/**
 * The body of every error response.
 * @deprecated Use `ErrorBody`: this name shadows the global `Error` where it is imported.
 */
export type Error = ErrorBody;
/** Every documented machine-readable error code, of every error status. */
export type ErrorCode = ErrorBody['code'];

/** The operations of the API, by operationId. */
export type OperationId = keyof operations;
/** Query parameters of `listPets`. */
export type ListPetsQuery = NonNullable<operations['listPets']['parameters']['query']>;
/** Path parameters of `getPet`. */
export type GetPetPath = operations['getPet']['parameters']['path'];

/** The HTTP statuses an operation documents. */
export type ResponseStatus<Op extends OperationId> = keyof operations[Op]['responses'] & number;

/** The JSON body of operation `Op`'s response with status `Status`. */
export type ResponseBody<
  Op extends OperationId,
  Status extends ResponseStatus<Op>,
> = operations[Op]['responses'][Status] extends { content: { 'application/json': infer Body } }
  ? Body
  : never;

/** The JSON request body of operation `Op` (never when it takes none). */
export type RequestBody<Op extends OperationId> = operations[Op] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
