import type { Pet } from '@petstore/types';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadDescription } from '../contract.js';

/**
 * Whether a pet read from the store may be served: it matches the contract's `Pet` schema
 * (compiled from the bundle once). Requests are validated before anything is stored, so every
 * row written through the API passes; this is defence in depth against rows that did not come
 * that way (an older version's data, a hand-edited database): such a row is left out of a page
 * (and logged) instead of failing the page for everyone.
 */
export type ServablePetCheck = (pet: unknown) => pet is Pet;

export function createServablePetCheck(): ServablePetCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addSchema(loadDescription(), 'openapi');
  const validate = ajv.getSchema('openapi#/components/schemas/Pet');
  if (validate === undefined) throw new Error('The bundle has no components/schemas/Pet.');
  return (pet: unknown): pet is Pet => validate(pet) === true;
}
