/** The mock server's parts: the description's example animals and the seeded sandbox store. */
export { examplePets } from './example-pets.js';
export { sandboxPlan, seedMockStore } from './seed.js';
