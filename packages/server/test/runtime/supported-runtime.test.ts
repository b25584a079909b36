import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { supportedRange, unsupportedRuntime } from '../../src/runtime/supported-runtime.js';
import { serverDir } from '../support/server-process.js';

const engines = (
  JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as {
    engines: { node: string };
  }
).engines.node;

describe('the supported runtime', () => {
  it("is the package's engines.node", () => {
    expect(supportedRange()).toBe(engines);
  });

  it.each(['22.15.0', '22.23.3', '24.0.0', '24.21.0'])('accepts Node.js %s', (version) => {
    expect(unsupportedRuntime(version, supportedRange())).toBeUndefined();
  });

  it.each(['18.20.8', '20.19.0', '20.20.2', '22.13.1', '22.14.0'])(
    'refuses Node.js %s in one line that says what to run',
    (version) => {
      const message = unsupportedRuntime(version, supportedRange());
      expect(message).toContain(`not ${version}`);
      expect(message).toContain('npm start');
      expect(message).not.toContain('\n');
    },
  );

  it('covers the Node.js this run is on: the pinned one, or the line a CI step asked for', () => {
    const pinned = readFileSync(path.join(serverDir, '../../.node-version'), 'utf8').trim();
    expect(process.versions.node).toBe(process.env.PETSTORE_TEST_NODE ?? pinned);
    expect(semver.satisfies(process.versions.node, supportedRange())).toBe(true);
  });
});

/** The first `node` on PATH outside any node_modules: the machine's own Node.js. */
function machineNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir.split(path.sep).includes('node_modules')) continue;
    const candidate = path.join(dir, 'node');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

describe("the server started with the machine's own Node.js", () => {
  // These machines come with Node.js 20, which the server does not support; on a machine whose
  // own Node.js is supported, the same start gets past the check instead.
  it(
    'exits with one line saying what to run when that Node.js is not supported',
    { timeout: 60_000 },
    () => {
      const node = machineNode();
      expect(node, 'a node on PATH outside node_modules').toBeDefined();
      const version = execFileSync(node!, ['-p', 'process.versions.node'], {
        encoding: 'utf8',
      }).trim();
      const started = spawnSync(node!, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir,
        env: { ...process.env, PORT: 'not-a-port' }, // a supported runtime stops at the config instead
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(started.status).toBe(1);
      if (semver.satisfies(version, engines)) {
        expect(started.stderr).toMatch(/PORT/);
      } else {
        expect(started.stderr).toBe(`${unsupportedRuntime(version, engines)}\n`);
      }
    },
  );
});
