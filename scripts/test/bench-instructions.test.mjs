// Keeps scripts/bench/instructions.mjs working: it runs for real, under valgrind's callgrind, on
// the shortest settings, and the counts it reports are checked for their shape and for what any
// count must show (every request counted, the main thread's part of the whole).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perProcess } from '../bench/instructions.mjs';
import { root } from '../bench/paths.mjs';

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const script = path.join(root, 'scripts/bench/instructions.mjs');
let scratch = '';

beforeAll(async () => {
  // It runs the built server, as npm run bench does.
  await run(process.execPath, [tsc, '--build', path.join(root, 'packages/server')], { cwd: root });
  scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-instructions-test-'));
}, 120_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('scripts/bench/instructions.mjs', () => {
  it('counts instructions per request of each process, per thread, and compares the targets', async () => {
    const json = path.join(scratch, 'counts.json');
    const { stdout } = await run(
      process.execPath,
      [
        script,
        ...['--targets', 'ours,node-http', '--scenarios', 'create', '--processes', '1'],
        ...['--warm-up', '2', '--requests', '50', '--counts', '2', '--gap', '1'],
        ...['--json', json],
      ],
      { cwd: root },
    );
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report.results.map((row) => [row.scenario, row.target])).toEqual([
      ['create', 'ours'],
      ['create', 'node-http'],
    ]);
    for (const row of report.results) {
      expect(row.processes).toHaveLength(1);
      expect(row.processes[0]).toHaveLength(2);
      for (const count of row.processes[0]) {
        expect(count.requests).toBe(50);
        expect(count.mainThread).toBeGreaterThan(10_000); // a request is more than that
        expect(count.perRequest).toBeGreaterThanOrEqual(count.mainThread);
      }
    }
    // Our creates are written by the SQLite writer thread: instructions of its own, apart from
    // V8's helper threads'; the bare node:http server has no such thread.
    const [ours, bare] = report.results.map((row) => row.processes[0][1]);
    expect(ours.otherThreads).toBeGreaterThan(1000);
    expect(bare.otherThreads).toBeLessThan(ours.otherThreads);
    for (const count of [ours, bare]) {
      expect(count.mainThread + count.v8Helpers + count.otherThreads).toBeCloseTo(count.perRequest);
    }
    expect(stdout).toMatch(/\| create \| ours \| \d+k, \d+k \| \d+ %/);
    expect(stdout).toMatch(/create: node-http ÷ ours = \d+\.\d\d×/);
  }, 600_000);

  it("takes a process's counts together, weighted by their requests", () => {
    const count = (requests, perRequest) => ({
      requests,
      perRequest,
      mainThread: perRequest / 2,
      v8Helpers: perRequest / 4,
      otherThreads: perRequest / 4,
    });
    // 1,000 requests at 200k and 3,000 at 300k: 1,100M instructions for 4,000 requests.
    expect(perProcess([count(1000, 200_000), count(3000, 300_000)])).toEqual({
      requests: 4000,
      perRequest: 275_000,
      mainThread: 137_500,
      v8Helpers: 68_750,
      otherThreads: 68_750,
    });
  });

  it('refuses a bad option in one line, exit code 2', async () => {
    const failed = await run(process.execPath, [script, '--processes', '0']).catch(
      (error) => error,
    );
    expect(failed.code).toBe(2);
    expect(failed.stderr).toBe(
      'instructions.mjs: --processes must be a whole number of at least 1 (got "0") (--help for usage)\n',
    );
  });
});
