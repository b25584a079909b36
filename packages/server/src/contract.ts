import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Where the contract and what is derived from it live on disk: the bundled description
 * (generated from `openapi/openapi.yaml` into `@petstore/types`) and the rendered HTML reference
 * beside it. The one place the server learns these paths.
 */
const require = createRequire(import.meta.url);

/** The bundled description, JSON. */
export const openApiJsonFile = require.resolve('@petstore/types/openapi.json');
/** The same bundle in YAML. */
export const openApiYamlFile = require.resolve('@petstore/types/openapi.yaml');
/** The offline HTML reference built by `npm run docs` beside the bundle. */
export const docsHtmlFile = path.join(path.dirname(openApiJsonFile), '..', 'docs', 'index.html');

/** The bundled description, parsed (a fresh object on each call: callers may keep or mutate it). */
export function loadDescription(): Record<string, unknown> {
  return JSON.parse(readFileSync(openApiJsonFile, 'utf8')) as Record<string, unknown>;
}

/**
 * `node` itself, or what its local `$ref` (`#/components/…`) points to in `description`,
 * following chains. For reading the bundle, whose responses, parameters and headers are refs.
 */
export function resolveRef<T>(description: unknown, node: T | { $ref: string }): T {
  let current: unknown = node;
  for (let hops = 0; hops < 32; hops++) {
    const ref = (current as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return current as T;
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>(
        (at, part) => (at as Record<string, unknown> | undefined)?.[part],
        description,
      );
  }
  throw new Error('A $ref chain of the description does not end.');
}
