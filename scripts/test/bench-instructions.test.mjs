// Keeps scripts/bench/instructions.mjs working: it runs for real, under valgrind's callgrind, on
// the shortest settings, and the counts it reports are checked for their shape and for what any
// count must show (every request counted, the main thread's part of the whole).
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatProfile, parsePerfMap, selfCosts } from '../bench/callgrind-profile.mjs';
import { perProcess } from '../bench/instructions.mjs';
import { root } from '../bench/paths.mjs';
import { existingDatabases } from './scratch-databases.mjs';

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
  it('counts instructions per request of each process, per thread, compares the targets and profiles them', async () => {
    const json = path.join(scratch, 'counts.json');
    const profiles = path.join(scratch, 'profiles');
    const { stdout } = await run(
      process.execPath,
      [
        script,
        ...['--targets', 'ours,node-http', '--scenarios', 'create', '--processes', '1'],
        ...['--warm-up', '2', '--requests', '50', '--counts', '2', '--gap', '1'],
        ...['--json', json, '--profile', profiles],
      ],
      { cwd: root },
    );
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report.results.map((row) => [row.scenario, row.target])).toEqual([
      ['create', 'ours'],
      ['create', 'node-http'],
    ]);
    for (const row of report.results) {
      // Each process ran under callgrind without V8's memory reducer (the tool's header says
      // why), as its command line read from the kernel shows.
      expect(row.commandLines).toHaveLength(1);
      const [commandLine] = row.commandLines;
      expect(commandLine.some((arg) => arg.includes('callgrind'))).toBe(true);
      expect(commandLine).toContain(process.execPath);
      expect(commandLine.slice(commandLine.indexOf(process.execPath))).toContain(
        '--no-memory-reducer',
      );
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
    // The profile of each process: its main thread's functions, V8's run-time code (JavaScript
    // its JIT compiled) named from its map; the writer thread apart; the dumps kept.
    const files = await readdir(profiles);
    expect(files.filter((file) => file.endsWith('.md')).sort()).toEqual([
      'create-node-http-1.md',
      'create-ours-1.md',
    ]);
    expect(files.some((file) => /^create-ours-1\.perf-\d+\.map$/.test(file))).toBe(true);
    expect(files.some((file) => /^create-ours-1\.\d+\.out/.test(file))).toBe(true);
    // Nothing left in the targets' working directories (V8's log goes with the scratch files).
    for (const dir of ['packages/server', 'scripts/bench/baselines']) {
      expect(
        (await readdir(path.join(root, dir))).filter((file) => file.endsWith('v8.log')),
      ).toEqual([]);
    }
    const profile = await readFile(path.join(profiles, 'create-ours-1.md'), 'utf8');
    expect(profile).toMatch(/^### Thread 1 \(main thread\)/m);
    expect(profile).toMatch(/^### Thread \d+ \(another thread\)/m);
    expect(profile).toMatch(/^\| [\d,]+ \| [\d.]+ % \| JS:\S+ node:/m);
  }, 600_000);

  it('counts our server on PostgreSQL through its driver, and drops its scratch databases', async () => {
    const json = path.join(scratch, 'postgres.json');
    const profiles = path.join(scratch, 'postgres-profiles');
    const { stdout, stderr } = await run(
      process.execPath,
      [
        script,
        ...['--database', 'postgres', '--targets', 'ours', '--scenarios', 'create'],
        ...['--processes', '1', '--warm-up', '2', '--requests', '50', '--counts', '1'],
        ...['--json', json, '--profile', profiles],
      ],
      { cwd: root },
    );
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report.options.database).toBe('postgres');
    const [count] = report.results[0].processes[0];
    expect(count.requests).toBe(50);
    expect(count.mainThread).toBeGreaterThan(10_000);
    expect(stdout).toContain('PostgreSQL (its own work not counted)');
    expect(stdout).toContain("other threads: in ours, libuv's thread pool hashing the password");
    // The server ran PostgreSQL's driver (its code is in V8's map of the process) and no
    // SQLite (better-sqlite3's native code in no thread's dump).
    const files = await readdir(profiles);
    const map = files.find((file) => /^create-ours-1\.perf-\d+\.map$/.test(file));
    expect(await readFile(path.join(profiles, map), 'utf8')).toContain('node_modules/pg-protocol/');
    const dumps = files.filter((file) => /^create-ours-1\.\d+\.out/.test(file));
    expect(dumps.length).toBeGreaterThan(0);
    for (const dump of dumps) {
      expect(await readFile(path.join(profiles, dump), 'utf8')).not.toContain('sqlite3');
    }
    const databases = [...stderr.matchAll(/(petstore_bench_[0-9a-f]+)/g)].map((m) => m[1]);
    expect(new Set(databases).size).toBe(2); // the seeded store and the process's copy
    expect(await existingDatabases(databases)).toEqual([]);
  }, 300_000);

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

  it("names V8's run-time code from its map and counts each function's own instructions", () => {
    const map = parsePerfMap(
      [
        '1000 100 JS:*first file.js:1:1',
        '2000 80 JS:*old file.js:2:1',
        '2000 40 JS:*new file.js:3:1',
      ].join('\n'),
    );
    // A dump as callgrind writes it with --compress-strings=no: a function's cost lines, and a
    // call's cost right after its calls= line, which is the callee's.
    const dump = [
      'thread: 1',
      'fn=0x0000000000001010',
      '0 500',
      'cfn=Builtins_StringAdd',
      'calls=2 0',
      '0 300',
      'fn=Builtins_StringAdd',
      '0 300',
      'fn=0x0000000000002010',
      '0 200',
      'fn=0x0000000000002050',
      '0 7',
      'fn=0x0000000000009000',
      '0 1',
    ].join('\n');
    const costs = selfCosts(dump, map);
    expect(Object.fromEntries(costs)).toEqual({
      'JS:*first file.js:1:1': 500,
      Builtins_StringAdd: 300,
      // The later line for an address wins; past its end the address is in no code of the map.
      'JS:*new file.js:3:1': 200,
      'JIT code not in the map': 8,
    });
    expect(formatProfile(costs, 2, 2)).toBe(
      [
        '504 instructions per request in all; the 2 functions that ran the most themselves:',
        '',
        '| instructions per request | share | function |',
        '| ---: | ---: | --- |',
        '| 250 | 49.6 % | JS:*first file.js:1:1 |',
        '| 150 | 29.8 % | Builtins_StringAdd |',
      ].join('\n'),
    );
  });

  it('refuses a bad option in one line, exit code 2', async () => {
    const failed = await run(process.execPath, [script, '--processes', '0']).catch(
      (error) => error,
    );
    expect(failed.code).toBe(2);
    expect(failed.stderr).toBe(
      'instructions.mjs: --processes must be a whole number of at least 1 (got "0") (--help for usage)\n',
    );
    const store = await run(process.execPath, [script, '--database', 'mysql']).catch(
      (error) => error,
    );
    expect(store.code).toBe(2);
    expect(store.stderr).toBe(
      'instructions.mjs: --database: "mysql" is not one of sqlite, postgres (--help for usage)\n',
    );
  });
});
