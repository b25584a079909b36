/** The routes: the three operations of the contract under `/v1`, and the public routes. */
export { dispatchOperations, type OperationHandler, type OperationHandlers } from './operations.js';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, petOperations, type PetRoutesOptions } from './pets.js';
export { publicRoutes, type PublicRoutesOptions, STATIC_MAX_AGE_SECONDS } from './public.js';
