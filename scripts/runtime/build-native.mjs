// Builds the project's native addon (better-sqlite3) from its source, against the headers of the
// runtime that will load it: the pinned Node.js build from node_modules (see pin.mjs). npm runs
// this after every install (the root's `postinstall`). Nothing is downloaded: the registry's
// better-sqlite3 package carries the C++ and SQLite sources, the runtime package carries
// `include/node`, and node-gyp is npm's own. The user's npm `nodedir` (which may name the
// machine's Node headers) is overridden on purpose: those are the headers of another runtime.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { isMain, parseCommandLine, runMain } from '../cli.mjs';
import { readPin, root } from './pin.mjs';

export const usage = `
Usage: node scripts/runtime/build-native.mjs [--force]

Compiles better-sqlite3 from source for the pinned Node.js (.node-version), with node-gyp and the
runtime package's headers. npm runs it after install; it does nothing when the addon was already
built for the same runtime and package version.

  --force     build even when the addon is up to date
  -h, --help  this text
`;

const require = createRequire(import.meta.url);
const addonDir = path.dirname(require.resolve('better-sqlite3/package.json', { paths: [root] }));
const stampFile = path.join(addonDir, 'build', 'petstore-runtime.json');
/** The addon better-sqlite3 loads first when it exists (lib/binding.js), before any prebuild. */
export const builtAddon = path.join(addonDir, 'build', 'Release', 'better_sqlite3.node');

/**
 * The runtime the project's scripts run on: the registry's build for this platform, when npm
 * installed one (node_modules/node-<platform>-<arch>), else undefined.
 */
export function pinnedRuntime() {
  const dir = path.join(root, 'node_modules', `node-${process.platform}-${process.arch}`);
  const node = path.join(dir, 'bin', 'node');
  return existsSync(node) ? { dir, node } : undefined;
}

/** npm's own node-gyp: npm names it to install scripts; else the one beside the npm running us. */
function nodeGyp() {
  if (process.env.npm_config_node_gyp) return process.env.npm_config_node_gyp;
  const npmCli = process.env.npm_execpath;
  const bundled =
    npmCli &&
    path.join(path.dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (bundled && existsSync(bundled)) return bundled;
  return require.resolve('node-gyp/bin/node-gyp.js'); // a node-gyp of the project's, if any
}

/** The command line: `npm install` runs this as the root's postinstall. */
export async function main(args) {
  const cli = parseCommandLine(args, { usage, options: { force: { type: 'boolean' } } });
  if (!cli) return 0;
  const runtime = pinnedRuntime();
  const pin = await readPin();
  // Without a registry build for this platform, scripts run on the machine's own Node.js.
  const target = runtime ? pin : process.versions.node;
  const { version } = JSON.parse(await readFile(path.join(addonDir, 'package.json'), 'utf8'));
  const stamp = JSON.stringify({ node: target, 'better-sqlite3': version });
  const built = await readFile(stampFile, 'utf8').catch(() => null);
  if (!cli.values.force && built === stamp && existsSync(builtAddon)) {
    console.log(`better-sqlite3 ${version}: already built for Node.js ${target}`);
    return 0;
  }
  if (!runtime)
    console.warn(
      `No registry build of Node.js for ${process.platform}-${process.arch}: building for this machine's Node.js ${target} (the project pins ${pin}).`,
    );
  const gypArgs = [
    nodeGyp(),
    'rebuild',
    '--release',
    '--force_build=1', // compile even though the package ships prebuilt binaries
    `--jobs=${os.availableParallelism()}`,
    '--loglevel=warn',
    ...(runtime ? [`--nodedir=${runtime.dir}`] : []),
  ];
  const started = Date.now();
  console.log(`better-sqlite3 ${version}: compiling from source for Node.js ${target}…`);
  const code = await new Promise((resolve, reject) => {
    const child = spawn(runtime?.node ?? process.execPath, gypArgs, {
      cwd: addonDir,
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('close', (exit) => resolve(exit ?? 1));
  });
  if (code !== 0) {
    console.error(
      'better-sqlite3 did not compile: node-gyp needs python3, make and a C++20 compiler (g++ ≥ 10).',
    );
    return 1;
  }
  await writeFile(stampFile, stamp);
  console.log(
    `better-sqlite3 ${version}: built for Node.js ${target} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  return 0;
}

if (isMain(import.meta.url)) await runMain(main);
