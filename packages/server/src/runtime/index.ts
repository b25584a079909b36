/**
 * The runtime check. Entry points (`main.ts`, the mock, the keys CLI) import this folder first,
 * before anything that loads a native addon or newer APIs: on a Node.js the server does not
 * support (package.json `engines.node`), the process exits with one line saying what to run
 * instead, rather than crashing inside a dependency (better-sqlite3's addon needs Node-API 10,
 * which Node.js 20 lacks).
 */
import { supportedRange, unsupportedRuntime } from './supported-runtime.js';

const problem = unsupportedRuntime(process.versions.node, supportedRange());
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}

export { supportedRange, unsupportedRuntime };
