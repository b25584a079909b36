import type { Pet } from '@petstore/types';
import { loadDescription } from '../contract.js';
import { issueApiKey } from '../keys/index.js';
import type { Storage } from '../storage/index.js';
import { examplePets } from './example-pets.js';

/** The plan of the sandbox key: Pro, so exploring rarely meets a 429 but still can. */
export const sandboxPlan = 'pro';

/**
 * Fills an (empty, in-memory) store for the mock: the animals of the description's examples,
 * and one sandbox API key on the Pro plan.
 *
 * @returns The stored pets and the raw sandbox key (shown once; only its hash is stored).
 * @example
 * ```ts
 * const storage = await openStorage('file::memory:');
 * const { key } = await seedMockStore(storage);
 * ```
 */
export async function seedMockStore(
  storage: Storage,
  description: unknown = loadDescription(),
): Promise<{ pets: Pet[]; key: string }> {
  const pets: Pet[] = [];
  for (const pet of examplePets(description)) pets.push(await storage.pets.create(pet));
  const { raw } = await issueApiKey(storage.keys, { plan: sandboxPlan, name: 'sandbox' });
  return { pets, key: raw };
}
