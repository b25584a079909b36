import type { NewPet, Pet } from '@petstore/types';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The animals the description's own examples show, read from the bundled description so the
 * mock's data and the docs never disagree: every example of every successful (2xx) JSON
 * response that is a Pet or an array of Pets, once per `id`, ordered by `id`.
 *
 * @param description The bundled OpenAPI description, parsed (`@petstore/types/openapi.json`).
 * @returns The pets, without their example `id` (the store assigns ids).
 * @example
 * ```ts
 * const seed = examplePets(JSON.parse(readFileSync(openApiJsonFile, 'utf8')));
 * for (const pet of seed) await storage.pets.create(pet);
 * ```
 */
export function examplePets(description: unknown): NewPet[] {
  const root = description as Json;
  const deref = (value: Json | undefined): Json | undefined => {
    let current = value;
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
      const ref: string = current.$ref;
      if (!ref.startsWith('#/') || hops > 32) throw new Error(`Unresolvable $ref ${ref}`);
      current = ref
        .slice(2)
        .split('/')
        .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
        .reduce<Json | undefined>((node, part) => (isObject(node) ? node[part] : undefined), root);
    }
    return current;
  };

  const byId = new Map<number, Pet>();
  const paths = isObject(root) && isObject(root.paths) ? root.paths : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      const responses = isObject(operation) ? deref(operation.responses) : undefined;
      if (!isObject(responses)) continue;
      for (const [status, raw] of Object.entries(responses)) {
        if (!/^2\d\d$/.test(status)) continue;
        const media = at(deref(raw), 'content', 'application/json');
        const examples = at(media, 'examples');
        for (const example of isObject(examples) ? Object.values(examples) : []) {
          const value = at(deref(example), 'value');
          for (const candidate of Array.isArray(value) ? value : [value]) {
            if (isPet(candidate)) byId.set(candidate.id, candidate);
          }
        }
      }
    }
  }
  return [...byId.values()].sort((a, b) => a.id - b.id).map(({ id: _id, ...pet }) => pet);
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function at(value: Json | undefined, ...keys: string[]): Json | undefined {
  let current = value;
  for (const key of keys) current = isObject(current) ? current[key] : undefined;
  return current;
}

function isPet(value: Json | undefined): value is Pet & { [key: string]: Json } {
  return (
    isObject(value) &&
    Number.isSafeInteger(value.id) &&
    typeof value.name === 'string' &&
    Number.isSafeInteger(value.categoryId)
  );
}
