// Where the benchmark finds the repository's parts.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const serverDir = path.join(root, 'packages/server');
/** The built server, run as `npm start` runs it. */
export const mainJs = path.join(serverDir, 'dist/main.js');
export const keysCli = path.join(serverDir, 'src/cli/keys.ts');
export const baselinesDir = path.join(root, 'scripts/bench/baselines');

/**
 * Resolves packages as our server does: the baselines run the very express and
 * express-openapi-validator our server runs, and seeding uses its better-sqlite3 and pg
 * (the root package does not depend on them).
 */
export const serverRequire = createRequire(path.join(serverDir, 'package.json'));
