import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { memoizeRoutePatterns } from '../../src/validation/route-patterns.js';

const fromValidator = createRequire(
  createRequire(import.meta.url).resolve('express-openapi-validator'),
);

describe('memoizeRoutePatterns', () => {
  it('makes the validator’s path-to-regexp compile each route once, with the same result', () => {
    const patterns = fromValidator('path-to-regexp') as {
      pathToRegexp: (
        path: string,
        options?: object,
      ) => { regexp: RegExp; keys: { name: string }[] };
    };
    memoizeRoutePatterns();
    memoizeRoutePatterns(); // idempotent: no second layer
    const first = patterns.pathToRegexp('/v1/pets/:petId', { sensitive: false, strict: false });
    const again = patterns.pathToRegexp('/v1/pets/:petId', { sensitive: false, strict: false });
    expect(again).toBe(first);
    expect(first.regexp.exec('/v1/pets/12')?.[1]).toBe('12');
    expect(first.keys.map((key) => key.name)).toEqual(['petId']);
    expect(patterns.pathToRegexp('/v1/pets/:petId', { sensitive: true })).not.toBe(first);
  });
});
