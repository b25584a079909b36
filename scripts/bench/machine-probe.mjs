// How fast the server's core is right now: a fixed unit of work (a JSON round trip of a 20-pet
// page and a SHA-1 of it: the kind of work a request does) timed by the probe's own CPU time.
// On a shared virtual machine a core's speed changes by itself, for tens of seconds at a time,
// from outside the guest (which counts no steal time): in one test here, two copies of a probe
// like this one, one per core, ran side by side for a minute; one stayed at 12.4–14.3 µs per
// unit while the other went from 12.6–13.2 to 18.2–20.0 µs for 26 s. The harness runs the
// probe on the server's core right before and right after each measured window, so a window's
// CPU per request can be read beside the speed of the core it ran on (steady-core.mjs), and
// in short bursts beside the server during the window (probeDuring).
//
// Run as a program (`node machine-probe.mjs <ms>`), it works for about that long and prints
// its microseconds of CPU per unit; with `during` after `<ms>`, it prints "ready" once warmed
// up, then works in bursts (probeDuring) and prints their mean.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const self = fileURLToPath(import.meta.url);

/** Milliseconds of work per probe: long enough for a stable figure, short beside a window. */
export const PROBE_MS = 400;

/** CPU microseconds per unit of work on `core` (unpinned when `pinned` is false). */
export async function probeMachine({ pinned, core, ms = PROBE_MS }) {
  const node = [process.execPath, self, String(ms)];
  const command = pinned ? ['taskset', '-c', String(core), ...node] : node;
  const { stdout } = await promisify(execFile)(command[0], command.slice(1));
  return Number(stdout.trim());
}

/** A window's probe figure: the mean of the probes before and after it (µs per unit). */
export const probeMean = ({ before, after }) => (before + after) / 2;

const page = Array.from({ length: 20 }, (_, index) => ({
  id: index + 1,
  name: `Pet ${index + 1}`,
  categoryId: index % 7,
  status: 'available',
}));

function unit() {
  const text = JSON.stringify(page);
  const parsed = JSON.parse(text);
  return createHash('sha1').update(text).update(String(parsed.length)).digest('hex').length;
}

/**
 * Units of work for `ms` of wall time after a warm-up; resolves to CPU µs per unit. `during`: a
 * short warm-up, a "ready" line, then bursts (`bursts`) beside a loaded server on its core.
 */
function work(ms, during) {
  // Unmeasured first, so the figure is of optimised code.
  const warmUntil = performance.now() + (during ? DURING_WARM_UP_MS : ms / 10);
  let sink = 0;
  while (performance.now() < warmUntil) sink += unit();
  if (during) {
    process.stdout.write('ready\n'); // synchronous on a pipe (Linux)
    return bursts(ms, sink);
  }
  const startCpu = process.cpuUsage();
  const until = performance.now() + ms;
  let units = 0;
  while (performance.now() < until) {
    for (let i = 0; i < 50; i += 1) sink += unit();
    units += 50;
  }
  const { user, system } = process.cpuUsage(startCpu);
  if (sink === 0) throw new Error('unreachable: every unit adds 40');
  return (user + system) / units;
}

/** Warm-up of a probe that runs during a window: short, as the load waits for it. */
const DURING_WARM_UP_MS = 40;

/** During a window: a burst of BURST_MS of units every BURST_EVERY_MS (0.8 % of the core). */
const BURST_MS = 2;
const BURST_EVERY_MS = 250;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * For `ms`: every BURST_EVERY_MS, units for BURST_MS of wall time, each burst timed by the
 * probe's own CPU time; returns the mean of the bursts' CPU µs per unit. Started at real-time
 * priority (probeDuring), a burst runs whole, uninterrupted by the server's threads, so it times
 * the core as it is at that moment. On a fast core it reads about 1.12–1.15× the probe on an
 * idle core (its code and data are cold after the server's turn); more, and the core was slower.
 */
function bursts(ms, warmSink) {
  let sink = warmSink;
  let sum = 0;
  let count = 0;
  const until = performance.now() + ms;
  while (performance.now() < until) {
    Atomics.wait(sleeper, 0, 0, BURST_EVERY_MS);
    const startCpu = process.cpuUsage();
    const start = performance.now();
    let units = 0;
    while (performance.now() - start < BURST_MS) {
      sink += unit();
      units += 1;
    }
    const { user, system } = process.cpuUsage(startCpu);
    sum += (user + system) / units;
    count += 1;
  }
  if (sink === 0) throw new Error('unreachable: every unit adds 40');
  return sum / count;
}

let realTime;

/** `meta.probeDuring` of a run whose probe in bursts ran at real-time priority (run.mjs). */
export const BURSTS_AT_REAL_TIME = 'bursts at real-time priority';

/**
 * Whether this machine lets the probe run at real-time priority (`chrt -f`: root, or
 * CAP_SYS_NICE), asked once. Without it the bursts run at normal priority, where the server's
 * threads can cut into a burst: the figure is then less sure.
 */
export function realTimeProbe() {
  realTime ??= promisify(execFile)('chrt', ['-f', '1', 'true']).then(
    () => true,
    () => false,
  );
  return realTime;
}

/**
 * A probe in bursts on `core` for the `ms` of a measured window, at real-time priority where the
 * machine allows it (realTimeProbe): `ready` resolves once it is warmed up (start the load
 * then), `done` to its CPU µs per unit (`bursts`). It tells whether the core slowed during the
 * window, which the probes before and after cannot see (docs/benchmark-stability.md); at
 * real-time priority the steady-core gate uses it to keep or re-run the window (steady-core.mjs).
 */
export function probeDuring({ core, ms }) {
  let out = '';
  const started = realTimeProbe().then((allowed) => {
    const probe = ['taskset', '-c', String(core), process.execPath, self, String(ms), 'during'];
    const command = allowed ? ['chrt', '-f', '1', ...probe] : probe;
    const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.setEncoding('utf8');
    return child;
  });
  const exited = started.then(
    (child) =>
      new Promise((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`machine probe (during) exited with ${code}`)),
        );
      }),
  );
  const ready = started.then(
    (child) =>
      new Promise((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          out += chunk;
          if (out.startsWith('ready\n')) resolve();
        });
        exited.then(
          () => reject(new Error('machine probe (during) ended before it was ready')),
          reject,
        );
      }),
  );
  const done = exited.then(() => Number(out.slice('ready\n'.length).trim()));
  done.catch(() => {}); // awaited by the caller once the window is measured, unless `ready` failed
  return { ready, done };
}

if (process.argv[1] === self) {
  const during = process.argv[3] === 'during';
  process.stdout.write(`${work(Number(process.argv[2] ?? PROBE_MS), during).toFixed(3)}\n`);
}
