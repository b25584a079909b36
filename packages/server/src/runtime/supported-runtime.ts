import { createRequire } from 'node:module';
import semver from 'semver';

/** The Node.js lines the server supports: its package.json `engines.node`, read where it is. */
export function supportedRange(): string {
  const require = createRequire(import.meta.url);
  // The same relative path from src/runtime/ and dist/runtime/.
  const pkg = require('../../package.json') as { engines: { node: string } };
  return pkg.engines.node;
}

/**
 * Why `version` cannot run the server, in one line, or undefined when it can.
 *
 * @example
 * unsupportedRuntime('20.20.2', '>=22.15.0');
 * // 'The Pet Store server needs Node.js >=22.15.0, not 20.20.2: run it with `npm start` …'
 */
export function unsupportedRuntime(version: string, range: string): string | undefined {
  if (semver.satisfies(version, range)) return undefined;
  return (
    `The Pet Store server needs Node.js ${range}, not ${version}: run it with \`npm start\` ` +
    `from the project's folder (it uses the Node.js that \`npm ci\` installed, see .node-version), ` +
    `or with a supported Node.js.`
  );
}
