// The scripts' command lines: node:util parseArgs behind each, a --help that prints the
// usage and does nothing else, a bad argument reported in one line with exit code 2.
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../generate.mjs';

/** Runs `node scripts/<script> ...args`; resolves with its exit code and output. */
function run(script, ...args) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'scripts', script), ...args],
      { cwd: root },
      (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }),
    );
  });
}

const scripts = [
  'generate.mjs',
  'build-docs.mjs',
  'check-generated.mjs',
  'api-breaking.mjs',
  'api-changelog.mjs',
  'dev.mjs',
];

describe('every script', () => {
  it.each(scripts)('%s --help prints its usage and does nothing else', async (script) => {
    const { code, stdout, stderr } = await run(script, '--help');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(new RegExp(`^Usage: node scripts/${script.replace('.', '\\.')}`));
    expect(stdout).toContain('-h, --help');
  });

  it.each(scripts)('%s rejects an unknown option in one line, with exit code 2', async (script) => {
    const { code, stdout, stderr } = await run(script, '--no-such-option');
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toBe(`${script}: Unknown option '--no-such-option' (--help for usage)\n`);
  });

  it('takes -h for --help', async () => {
    const { code, stdout } = await run('generate.mjs', '-h');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: node scripts\/generate\.mjs/);
  });
});

describe('bad arguments', () => {
  it.each([
    ['generate.mjs', ['everything'], "Unknown target 'everything': bundle, types or all"],
    ['generate.mjs', ['bundle', 'types'], "Unexpected argument 'types'"],
    ['generate.mjs', ['--out'], "Option '--out <value>' argument missing"],
    ['build-docs.mjs', ['index.html'], "Unexpected argument 'index.html'"],
    ['api-breaking.mjs', ['--base'], "Option '--base <value>' argument missing"],
    ['api-changelog.mjs', ['--head'], "Option '--head <value>' argument missing"],
    ['check-generated.mjs', ['now'], "Unexpected argument 'now'"],
    ['dev.mjs', ['--root', os.tmpdir()], `No openapi/openapi.yaml in ${os.tmpdir()}`],
  ])('%s %j: "%s", exit code 2', async (script, args, message) => {
    const { code, stderr } = await run(script, ...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^${script}: `));
    expect(stderr).toContain(message);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
