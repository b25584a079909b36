import type { NewPet, Pet } from '@petstore/types';
import type { TestServer } from '../../src/testing/index.js';

/** Headers of an authenticated JSON request. */
export const authorized = (key: string, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${key}`,
  ...extra,
});

/** `POST /v1/pets` with a JSON body (a string is sent as is). */
export function postPet(server: TestServer, key: string, body: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}/pets`, {
    method: 'POST',
    headers: authorized(key, { 'Content-Type': 'application/json' }),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Creates a pet and returns it (asserting the 201). */
export async function createPet(server: TestServer, key: string, pet: NewPet): Promise<Pet> {
  const response = await postPet(server, key, pet);
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status}`);
  return (await response.json()) as Pet;
}

/** `GET` a path under the server with the key (path starts with `/`). */
export function get(server: TestServer, key: string | undefined, path: string): Promise<Response> {
  return fetch(`${server.url}${path}`, key ? { headers: authorized(key) } : {});
}

/** The target of a `Link: <…>; rel="next"` header, or undefined. */
export function nextLink(response: Response): string | undefined {
  return response.headers.get('Link')?.match(/^<([^>]+)>; rel="next"$/)?.[1];
}

/** Follows `rel="next"` links from `firstPath`; returns every pet and the paths fetched. */
export async function walkPages(
  server: TestServer,
  key: string,
  firstPath: string,
): Promise<{ pets: Pet[]; paths: string[] }> {
  const pets: Pet[] = [];
  const paths: string[] = [];
  let path: string | undefined = firstPath;
  while (path !== undefined) {
    paths.push(path);
    const response = await get(server, key, path);
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    pets.push(...((await response.json()) as Pet[]));
    path = nextLink(response);
  }
  return { pets, paths };
}
