// Runs the pinned Redocly CLI of this workspace with telemetry off and Node's
// end-of-life banner out of the way; resolves with its exit code and output.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { isMain } from './cli.mjs';

const require = createRequire(import.meta.url);
const cli = require.resolve('@redocly/cli/bin/cli.js');

/**
 * @param {string[]} args Redocly CLI arguments, e.g. ['lint'].
 * @param {{ quiet?: boolean }} [options] quiet: collect output instead of streaming it.
 * @returns {Promise<{ code: number, output: string }>}
 */
export function redocly(args, { quiet = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (stream) => (chunk) => {
      const text = dropBanner(chunk.toString());
      output += text;
      if (!quiet) stream.write(text);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Redocly prints a boxed Node 20 end-of-life notice on every run; it is not ours to act on. */
function dropBanner(text) {
  return text
    .split('\n')
    .filter((line) => !/[║╔╚═]/.test(line))
    .join('\n');
}

// CLI use: `node scripts/redocly.mjs lint` (npm run lint:api). It has no options of its own:
// every argument goes to Redocly as it is (`--help` prints Redocly's help).
if (isMain(import.meta.url)) {
  const { code } = await redocly(process.argv.slice(2));
  process.exit(code);
}
