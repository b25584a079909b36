import { createRequire } from 'node:module';

type PathToRegexp = (path: unknown, options?: Record<string, unknown>) => unknown;

const MEMOIZED = Symbol('petstore.memoized');

/**
 * express-openapi-validator 5.6 matches a request to its operation by compiling every route of
 * the description into a regular expression, for every request (`lookupRoute` in
 * `openapi.metadata.js` calls path-to-regexp's `pathToRegexp` per route, per request): the
 * profile showed it among the validator's main costs. The routes never change, so the result
 * for a given path and options is computed once and kept. The compiled pattern is immutable
 * (no global flag, keys only read), so sharing it between requests is safe. Applied to the
 * path-to-regexp module the validator itself resolves; Express's router, which shares it,
 * compiles its routes once anyway.
 */
export function memoizeRoutePatterns(): void {
  const require = createRequire(import.meta.url);
  const fromValidator = createRequire(require.resolve('express-openapi-validator'));
  const patterns = fromValidator('path-to-regexp') as {
    pathToRegexp: PathToRegexp & { [MEMOIZED]?: true };
  };
  if (patterns.pathToRegexp[MEMOIZED]) return;
  const original = patterns.pathToRegexp;
  const cache = new Map<string, unknown>();
  const memoized = Object.assign(
    (path: unknown, options: Record<string, unknown> = {}) => {
      if (typeof path !== 'string') return original(path, options);
      const key = `${path}\u0000${options.sensitive}\u0000${options.strict}\u0000${options.end}\u0000${options.trailing}\u0000${options.delimiter}`;
      let compiled = cache.get(key);
      if (compiled === undefined) {
        compiled = original(path, options);
        cache.set(key, compiled);
      }
      return compiled;
    },
    { [MEMOIZED]: true as const },
  );
  patterns.pathToRegexp = memoized;
}
