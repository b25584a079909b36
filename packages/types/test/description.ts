// Test helpers: the bundled description, loaded once, with its $refs resolvable.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const bundleJsonPath = fileURLToPath(new URL('../openapi/openapi.json', import.meta.url));
export const bundleYamlPath = fileURLToPath(new URL('../openapi/openapi.yaml', import.meta.url));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed OpenAPI document is untyped JSON.
export type Json = any;

export const description: Json = JSON.parse(readFileSync(bundleJsonPath, 'utf8'));

/** Follows a local `$ref` (`#/components/...`) until it reaches an object that is not one. */
export function deref(node: Json): Json {
  let current = node;
  while (current && typeof current.$ref === 'string') {
    const pointer = current.$ref.replace(/^#\//, '').split('/');
    current = pointer.reduce(
      (acc: Json, key: string) => acc?.[key.replace(/~1/g, '/')],
      description,
    );
  }
  return current;
}

/** Every operation of the description with its path and method. */
export function operations(): { path: string; method: string; operation: Json }[] {
  return Object.entries(description.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}
