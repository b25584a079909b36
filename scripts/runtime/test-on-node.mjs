// Runs tests on another Node.js line than the pinned one, from the registry's official build:
// `node scripts/runtime/test-on-node.mjs 22.23.3 [vitest arguments…]`. The build is installed
// once into node_modules/.cache/petstore-node/<version> and put first on PATH, so vitest, its
// workers and every process a test spawns run on it. The project's better-sqlite3 addon is a
// Node-API 10 module (ABI-stable across Node.js lines), so the same build loads on any line
// the server supports (engines.node).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isMain, parseCommandLine, runMain, UsageError } from '../cli.mjs';
import { root } from './pin.mjs';

export const usage = `
Usage: node scripts/runtime/test-on-node.mjs <version> [vitest arguments…]

Installs the registry's Node.js <version> (node-${process.platform}-${process.arch}) under
node_modules/.cache/petstore-node/ if it is not there yet, then runs \`vitest run\` on it with the
given arguments. PETSTORE_TEST_NODE is set to <version> so the tests can check what they run on.

  -h, --help  this text
`;

function run(command, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The command line (`npm run test:node22`). */
export async function main(args) {
  const [version, ...vitestArgs] = args;
  if (version === undefined || version.startsWith('-')) {
    if (!parseCommandLine(args, { usage })) return 0;
    throw new UsageError('the first argument is a Node.js version, e.g. 22.23.3');
  }
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new UsageError(`"${version}" is not x.y.z`);
  const prefix = path.join(root, 'node_modules', '.cache', 'petstore-node', version);
  const bin = path.join(prefix, 'node_modules', '.bin');
  if (!existsSync(path.join(bin, 'node'))) {
    const pkg = `node-${process.platform}-${process.arch}@${version}`;
    console.log(`Installing ${pkg} from the registry into ${path.relative(root, prefix)}`);
    const npm = process.env.npm_execpath;
    const [command, npmArgs] = npm ? [process.execPath, [npm]] : ['npm', []];
    const code = await run(command, [
      ...npmArgs,
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      pkg,
    ]);
    if (code !== 0) return code;
  }
  const PATH = [bin, process.env.PATH].join(path.delimiter);
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  return run(path.join(bin, 'node'), [vitest, 'run', ...vitestArgs], {
    ...process.env,
    PATH,
    PETSTORE_TEST_NODE: version,
  });
}

if (isMain(import.meta.url)) await runMain(main);
