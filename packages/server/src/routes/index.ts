/** The routes: the three operations of the contract under `/v1`, and the public routes. */
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, petRoutes, type PetRoutesOptions } from './pets.js';
export { publicRoutes, type PublicRoutesOptions, STATIC_MAX_AGE_SECONDS } from './public.js';
