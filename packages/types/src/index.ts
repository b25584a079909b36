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
/** The body of every error response. */
export type Error = Schemas['Error'];
/** Alias of `Error` for code where that name would shadow the global `Error`. */
export type ErrorBody = Schemas['Error'];
/** The documented machine-readable error codes. */
export type ErrorCode = Schemas['ErrorCode'];

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
