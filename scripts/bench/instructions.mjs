#!/usr/bin/env node
// Instructions per request: what a request costs in the user-space instructions of the target's
// process, counted by valgrind's callgrind, whatever the speed of the core it ran on.
//
//   node scripts/bench/instructions.mjs [options]        (--help: the options)
//
// `npm run bench` measures CPU time, which a core of a shared virtual machine changes by itself
// (docs/benchmark-stability.md). A count of instructions leaves that out: each fresh process of
// each target runs under callgrind, first without instrumentation (about 5 times slower than
// natively, so the JIT warms up on tens of thousands of requests), then instrumented (about 50
// times slower) while a fixed number of requests is counted, once or more. What it leaves out as
// well: the kernel's work (system calls, TCP, wake-ups across cores: the `sys` of CPU time), the
// cost of an instruction (cache misses), and the store's work when it is another process: with
// --database postgres, PostgreSQL's own work is not counted, only the server's side of each
// query (the driver, the protocol, the pool). Under callgrind every turn finds all the
// connections' requests waiting, so a count is what a request costs at full load; and whatever
// V8 decides by the clock sees a process fifty times slower than it is, hence
// --no-memory-reducer (below). Results: docs/benchmark-stability.md.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { isMain, parseCommandLine, runMain, UsageError } from '../cli.mjs';
import { formatProfile, parsePerfMap, selfCosts } from './callgrind-profile.mjs';
import { undoLater, undoOnSignal } from './cleanup.mjs';
import { copyStore, openStore } from './database.mjs';
import { BenchError } from './errors.mjs';
import { requestFor, unexpectedAnswers } from './measure.mjs';
import { startProcess } from './processes.mjs';
import { median } from './report.mjs';
import { expectedStatuses, scenarioNames, scenarios } from './scenarios.mjs';
import { targets } from './targets.mjs';

const run = promisify(execFile);
const countable = ['ours', 'naive', 'express', 'node-http'];

const usage = `usage: node scripts/bench/instructions.mjs [options]

  --targets A,B     a subset of: ${countable.join(', ')} (default ours,naive)
  --scenarios A,B   a subset of: ${scenarioNames.filter((name) => !name.startsWith('scale')).join(', ')} (default list-20,create)
  --processes N     fresh processes per target and scenario (default 3)
  --warm-up S       seconds of load on each process before counting, not instrumented (default 60)
  --requests N      requests per count (default 8000)
  --counts N        counts per process (default 2)
  --gap S           seconds of load between two counts of one process (default 20)
  --connections N   autocannon connections (default 32)
  --database D      sqlite or postgres: our server's store (default sqlite; postgres: a scratch
                    database next to TEST_DATABASE_URL, dropped after, whose own work is
                    another process's and is not counted)
  --node-flags S    more flags for node, before every target's script (it always has
                    --no-memory-reducer), e.g. "--max-semi-space-size=16"
  --json FILE       also write the results as JSON
  --profile DIR     also write where each count's instructions went, function by function,
                    thread by thread (DIR/<scenario>-<target>-<process>.md), with callgrind's
                    dumps and V8's map of its code for callgrind_annotate; node then runs with
                    --perf-basic-prof, which costs a little: compare counts without it

Needs valgrind (Debian's package). Our server runs as npm run bench runs it, on SQLite unless
--database says otherwise.
About 3 minutes per process with the defaults.`;

/** The counts' spread the table marks, as npm run bench's aim for CPU time. */
const STABLE_WITHIN = 0.15;

/**
 * Counts one process of `target` on `scenario`: its instructions per request for each count, in
 * all and by kind of thread (readCounts), and its command line as the kernel has it (valgrind's
 * options, then node's flags and script), so that a report says what ran.
 */
async function countProcess({ target, scenario, store, options, dir, tag }) {
  const launch = targets[target].launch({
    store,
    pets: store.pets,
    logLevel: 'info',
    logTo: 'file',
  });
  const { port, pid, stop } = await startProcess({
    name: tag,
    ...launch,
    args: [
      // V8's memory reducer starts full collections when a process allocates slowly for a
      // while, by the clock: every process under callgrind does, so it would count them.
      '--no-memory-reducer',
      // V8's map of the code it makes, which names that code in the profile.
      ...(options.profile === undefined
        ? []
        : [
            '--perf-basic-prof',
            `--perf-basic-prof-path=${dir}`,
            // The flag opens V8's log as well, by default a file per isolate in the target's
            // working directory: one file among the scratch files instead.
            '--no-logfile-per-isolate',
            `--logfile=${path.join(dir, `${tag}.v8.log`)}`,
          ]),
      ...options.nodeFlags,
      ...launch.args,
    ],
    logFile: path.join(dir, `${tag}.log`),
    under: [
      'valgrind',
      '--tool=callgrind',
      // V8 writes and rewrites its machine code at run time.
      '--smc-check=all-non-file',
      '--instr-atstart=no',
      '--separate-threads=yes',
      '--dump-instr=no',
      // Every line names its function, so that a thread's dump tells what the thread ran.
      '--compress-strings=no',
      `--callgrind-out-file=${path.join(dir, `${tag}.%p.out`)}`,
    ],
    // Slower than natively, about five times, until counting starts.
    readyWithinMs: 300_000,
  });
  // callgrind_control finds the process by its user and host names, which valgrind read from
  // the target's environment (our server's HOST is its listening address).
  const controlEnv = { ...process.env };
  if (launch.env.HOST === undefined) delete controlEnv.HOST;
  else controlEnv.HOST = launch.env.HOST;
  const control = (...args) =>
    run('callgrind_control', [...args, String(pid)], { env: controlEnv });
  try {
    const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').slice(0, -1);
    const expected = expectedStatuses(scenario, target);
    const load = async (how) => {
      const result = await autocannon({
        url: `http://127.0.0.1:${port}`,
        connections: options.connections,
        requests: [requestFor(scenario, store.apiKey)],
        // Instrumented, a process can stop for seconds (valgrind translating its code again, a
        // full collection at a fiftieth of the speed): a late answer is not a failure here.
        timeout: 120,
        ...how,
      });
      const unexpected = unexpectedAnswers(result, expected);
      if (unexpected + result.errors + result.timeouts > 0) {
        throw new BenchError(
          `${tag}: ${unexpected} unexpected statuses, ${result.errors} errors, ${result.timeouts} timeouts`,
        );
      }
      return result.requests.total;
    };
    await load({ duration: options.warmUp });
    await control('--instr=on');
    // Instrumented, valgrind translates every piece of code again: seconds of load first.
    await load({ duration: 5 });
    const counted = [];
    for (let index = 0; index < options.counts; index += 1) {
      if (index > 0) await load({ duration: options.gap });
      await control('--zero');
      const requests = await load({ amount: options.requests });
      await control(`--dump=count${index}`);
      counted.push(requests);
    }
    await stop();
    if (options.profile !== undefined) await writeProfile(dir, tag, pid, counted, options.profile);
    return { counts: await readCounts(dir, tag, pid, counted), commandLine };
  } finally {
    await stop();
  }
}

/** A V8 helper thread's dump: it ran one of the platform's jobs or tasks. */
const V8_HELPER = /^fn=.*(?:DefaultJobWorker::Run|WorkerThreadsTaskRunner)/m;

/**
 * Instructions per request of each count, from callgrind's dumps (one file per thread): in all,
 * on the main thread (callgrind's thread 1), on V8's helper threads (compilers, the collector's
 * concurrent marking), and on the other threads (OTHER_THREADS).
 */
async function readCounts(dir, tag, pid, counted) {
  const files = (await readdir(dir)).filter((file) => file.startsWith(`${tag}.${pid}.out`));
  const texts = await Promise.all(files.map((file) => readFile(path.join(dir, file), 'utf8')));
  return counted.map((requests, index) => {
    const count = { requests, perRequest: 0, mainThread: 0, v8Helpers: 0, otherThreads: 0 };
    for (const text of texts) {
      if (!text.includes(`\ndesc: Trigger: dump count${index}\n`)) continue;
      const perRequest = Number(/^(?:summary|totals): (\d+)/m.exec(text)?.[1] ?? 0) / requests;
      const thread = Number(/^thread: (\d+)/m.exec(text)?.[1] ?? 1);
      count.perRequest += perRequest;
      if (thread === 1) count.mainThread += perRequest;
      else if (V8_HELPER.test(text)) count.v8Helpers += perRequest;
      else count.otherThreads += perRequest;
    }
    return count;
  });
}

/**
 * Writes `profileDir/<tag>.md`: for each count, the functions that ran the most instructions
 * themselves, thread by thread (callgrind-profile.mjs), V8's run-time code named from the map
 * node wrote with --perf-basic-prof. The dumps and the map are kept beside it, for
 * callgrind_annotate and for another look.
 */
async function writeProfile(dir, tag, pid, counted, profileDir) {
  await mkdir(profileDir, { recursive: true });
  const mapFile = path.join(dir, `perf-${pid}.map`);
  const perfMap = parsePerfMap(await readFile(mapFile, 'utf8'));
  await copyFile(mapFile, path.join(profileDir, `${tag}.perf-${pid}.map`));
  const files = (await readdir(dir)).filter((file) => file.startsWith(`${tag}.${pid}.out`)).sort();
  const sections = [`# Where the instructions went: ${tag} (process ${pid})`];
  for (const [index, requests] of counted.entries()) {
    sections.push(`## Count ${index + 1}: ${requests} requests`);
    for (const file of files) {
      const dump = await readFile(path.join(dir, file), 'utf8');
      if (!dump.includes(`\ndesc: Trigger: dump count${index}\n`)) continue;
      await copyFile(path.join(dir, file), path.join(profileDir, file));
      const thread = Number(/^thread: (\d+)/m.exec(dump)?.[1] ?? 1);
      const costs = selfCosts(dump, perfMap);
      // Threads that ran next to nothing in the count (idle helpers) are left out.
      const total = [...costs.values()].reduce((sum, cost) => sum + cost, 0);
      if (total < requests * 100) continue;
      const kind =
        thread === 1
          ? 'main thread'
          : V8_HELPER.test(dump)
            ? 'a V8 helper thread'
            : 'another thread';
      sections.push(
        `### Thread ${thread} (${kind}), callgrind's ${file}`,
        formatProfile(costs, requests, thread === 1 ? 60 : 25),
      );
    }
  }
  await writeFile(path.join(profileDir, `${tag}.md`), `${sections.join('\n\n')}\n`);
}

const thousands = (value) => `${Math.round(value / 1000)}k`;
const percent = (share) => `${Math.round(share * 100)} %`;

const spreadOf = (values) => (Math.max(...values) - Math.min(...values)) / median(values);
const marked = (share) => `${percent(share)}${share <= STABLE_WITHIN ? '' : ' ✗'}`;

/**
 * A process's counts taken together (their instructions ÷ their requests), for each part: a
 * major collection's work falls in one count of several, so the whole process is the figure to
 * compare across processes.
 */
export function perProcess(counts) {
  const requests = counts.reduce((sum, count) => sum + count.requests, 0);
  const part = (name) =>
    counts.reduce((sum, count) => sum + count[name] * count.requests, 0) / requests;
  return {
    requests,
    perRequest: part('perRequest'),
    mainThread: part('mainThread'),
    v8Helpers: part('v8Helpers'),
    otherThreads: part('otherThreads'),
  };
}

/** What the other threads of ours are, on each store. */
const OTHER_THREADS = {
  sqlite: 'in ours, the SQLite writer',
  // pg hashes the password (SCRAM-SHA-256: PBKDF2, Web Crypto's deriveBits, which runs in
  // libuv's thread pool) of every connection its pool opens. The pool closes a connection idle
  // for 10 s, by the clock, so under callgrind's slowness it opens connections anew more often
  // than natively.
  postgres:
    "in ours, libuv's thread pool hashing the password of each connection the pool opens anew",
};

/**
 * One row per scenario and target: every count, then each process's counts together, their
 * spread and median, and the median process's parts; then each baseline ÷ ours.
 */
export function formatCounts(results, { database = 'sqlite' } = {}) {
  const lines = [
    '| Scenario | Target | instructions per request, each count (process by process) | spread | each process | spread | median | main thread | V8 helpers | other threads |',
    '| --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  const medianOf = (row) => median(row.processes.map((counts) => perProcess(counts).perRequest));
  for (const row of results) {
    const counts = row.processes.flat().map((count) => count.perRequest);
    const processes = row.processes.map(perProcess);
    const part = (name) => thousands(median(processes.map((one) => one[name])));
    lines.push(
      `| ${row.scenario} | ${row.target} | ${row.processes.map((own) => own.map((count) => thousands(count.perRequest)).join(', ')).join('; ')} | ` +
        `${marked(spreadOf(counts))} | ${processes.map((one) => thousands(one.perRequest)).join(', ')} | ` +
        `${marked(spreadOf(processes.map((one) => one.perRequest)))} | ${thousands(medianOf(row))} | ` +
        `${part('mainThread')} | ${part('v8Helpers')} | ${part('otherThreads')} |`,
    );
  }
  const ratios = [];
  for (const row of results.filter((r) => r.target !== 'ours')) {
    const ours = results.find((r) => r.target === 'ours' && r.scenario === row.scenario);
    if (!ours) continue;
    ratios.push(
      `${row.scenario}: ${row.target} ÷ ours = ${(medianOf(row) / medianOf(ours)).toFixed(2)}×`,
    );
  }
  if (ratios.length > 0)
    lines.push('', `Instructions per request (median processes), ${ratios.join('; ')}.`);
  lines.push(
    '',
    `✗: more than ${STABLE_WITHIN * 100} % apart. Each process: its counts taken together. V8 helpers: its compilers and the collector's concurrent work; other threads: ${OTHER_THREADS[database]}; each part is the median over the processes of its own.`,
  );
  return `${lines.join('\n')}\n`;
}

async function main(args) {
  const cli = parseCommandLine(args, {
    usage,
    options: {
      targets: { type: 'string', default: 'ours,naive' },
      scenarios: { type: 'string', default: 'list-20,create' },
      processes: { type: 'string', default: '3' },
      'warm-up': { type: 'string', default: '60' },
      requests: { type: 'string', default: '8000' },
      counts: { type: 'string', default: '2' },
      gap: { type: 'string', default: '20' },
      connections: { type: 'string', default: '32' },
      database: { type: 'string', default: 'sqlite' },
      'node-flags': { type: 'string', default: '' },
      json: { type: 'string' },
      profile: { type: 'string' },
    },
  });
  if (!cli) return 0;
  const { values } = cli;
  const whole = (name, min) => {
    const text = values[name];
    if (!/^\d+$/.test(text) || Number(text) < min) {
      throw new UsageError(`--${name} must be a whole number of at least ${min} (got "${text}")`);
    }
    return Number(text);
  };
  const subset = (name, allowed) => {
    const chosen = values[name].split(',').filter(Boolean);
    const unknown = chosen.find((item) => !allowed.includes(item));
    if (unknown !== undefined || chosen.length === 0) {
      throw new UsageError(`--${name}: "${unknown ?? ''}" is not one of ${allowed.join(', ')}`);
    }
    return chosen;
  };
  const chosenTargets = subset('targets', countable);
  const chosenScenarios = subset(
    'scenarios',
    scenarioNames.filter((name) => !name.startsWith('scale')),
  );
  const databases = ['sqlite', 'postgres'];
  if (!databases.includes(values.database)) {
    throw new UsageError(`--database: "${values.database}" is not one of ${databases.join(', ')}`);
  }
  const options = {
    database: values.database,
    processes: whole('processes', 1),
    warmUp: whole('warm-up', 1),
    requests: whole('requests', 1),
    counts: whole('counts', 1),
    gap: whole('gap', 0),
    connections: whole('connections', 1),
    nodeFlags: values['node-flags'].split(' ').filter(Boolean),
    profile: values.profile,
  };
  undoOnSignal((message) => console.error(`instructions: ${message}`));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'petstore-instructions-'));
  const removeDir = undoLater(() => rm(dir, { recursive: true, force: true }));
  const results = [];
  let seeded;
  try {
    seeded = await openStore(options.database, { pets: 1000, dir, name: 'seeded' });
    console.error(`seeded: ${seeded.name}, 1000 pets and a key`);
    for (const name of chosenScenarios) {
      const scenario = scenarios.find((candidate) => candidate.name === name);
      for (const target of chosenTargets) {
        const row = { scenario: name, target, processes: [], commandLines: [] };
        for (let index = 1; index <= options.processes; index += 1) {
          const tag = `${name}-${target}-${index}`;
          const store = await copyStore(
            options.database,
            { ...seeded, pets: 1000 },
            { dir, name: tag },
          );
          console.error(`${tag}: on a copy of the seeded store, ${store.name}`);
          const { counts, commandLine } = await countProcess({
            target,
            scenario,
            store,
            options,
            dir,
            tag,
          }).finally(() => store.drop());
          console.error(
            `${tag}: ${counts.map((count) => `${thousands(count.perRequest)} (main thread ${thousands(count.mainThread)}, V8 helpers ${thousands(count.v8Helpers)}, others ${thousands(count.otherThreads)})`).join(', ')} instructions per request`,
          );
          row.processes.push(counts);
          row.commandLines.push(commandLine);
        }
        results.push(row);
      }
    }
  } catch (error) {
    if (!(error instanceof BenchError)) throw error;
    console.error(`instructions: ${error.message}`);
    return 1;
  } finally {
    // A PostgreSQL database is dropped (a SQLite file goes with the folder).
    await seeded?.drop();
    await removeDir();
  }
  const report = formatCounts(results, { database: options.database });
  console.log(
    `Instructions per request under callgrind — node ${process.version}, ${options.database === 'sqlite' ? 'SQLite' : 'PostgreSQL (its own work not counted)'}, ${options.connections} connections` +
      `${options.nodeFlags.length === 0 ? '' : `, node ${options.nodeFlags.join(' ')}`}` +
      `${options.profile === undefined ? '' : `, profiled (--perf-basic-prof; profiles in ${options.profile})`}; ` +
      `${options.processes} fresh process(es) per target and scenario, each loaded ${options.warmUp} s, ` +
      `then ${options.counts} count(s) of ${options.requests} requests ${options.gap} s apart\n`,
  );
  console.log(report);
  if (values.json !== undefined) {
    await writeFile(
      values.json,
      `${JSON.stringify({ node: process.version, options, results }, null, 2)}\n`,
    );
  }
  return 0;
}

if (isMain(import.meta.url)) await runMain(main);
