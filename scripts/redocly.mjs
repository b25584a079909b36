// Runs the pinned Redocly CLI of this workspace with telemetry off; resolves with its exit code
// and output. Everything Redocly prints is passed on as it is.
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
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (stream) => (chunk) => {
      const text = chunk.toString();
      output += text;
      if (!quiet) stream.write(text);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

// CLI use: `node scripts/redocly.mjs lint` (npm run lint:api). It has no options of its own:
// every argument goes to Redocly as it is (`--help` prints Redocly's help).
if (isMain(import.meta.url)) {
  const { code } = await redocly(process.argv.slice(2));
  process.exit(code);
}
