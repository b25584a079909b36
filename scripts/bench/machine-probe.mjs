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
// That unit fits in the core's own caches, and the machine's memory changes speed by
// itself too, which it does not see: during a window the probe also times dependent loads from
// 256 MiB of memory, eight times the shared last-level cache (Memory). In 100 windows of
// 10 s of creates in turn (29 November 2026, Node.js 24.21.0), ours' CPU per idempotent create
// followed those loads' time (correlation 0.91) more than the unit's (0.72).
//
// Run as a program (`node machine-probe.mjs <ms>`), it works for about that long and prints
// its microseconds of CPU per unit; with `during` after `<ms>`, it prints "ready" once warmed
// up, then works in bursts (probeDuring) and prints the mean of the units' bursts (µs per
// unit) and of the loads' (ns per load).
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
  const memory = during ? new Memory() : undefined;
  // Unmeasured first, so the figure is of optimised code.
  const warmUntil = performance.now() + (during ? DURING_WARM_UP_MS : ms / 10);
  let sink = 0;
  while (performance.now() < warmUntil) sink += unit() + (memory?.load(LOADS_PER_STEP) ?? 0);
  if (during) {
    process.stdout.write('ready\n'); // synchronous on a pipe (Linux)
    return bursts(ms, sink, memory);
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

/**
 * During a window: a burst of BURST_MS every BURST_EVERY_MS (0.8 % of the core), of units and of
 * memory loads in turn.
 */
const BURST_MS = 2;
const BURST_EVERY_MS = 250;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Bytes of memory the loads walk: eight times this machine's 32 MiB shared last-level cache. */
const MEMORY_BYTES = 256 * 2 ** 20;
const LINE_BYTES = 64;
const LOADS_PER_STEP = 64;

/**
 * A walk through MEMORY_BYTES where each load's address depends on the value the load before
 * it read, so the core waits for each in turn, and the addresses (the cache lines of a full-
 * period linear congruential sequence) follow no stride a prefetcher could guess. Its time per
 * load is the memory's latency as this core sees it now. The array is written once (zeros) so
 * that every page is the process's own, not the kernel's shared zero page; a plain fill, as an
 * array built by a loop in JavaScript runs unoptimised at real-time priority, where V8's
 * compiler threads wait for the main thread.
 */
class Memory {
  lines = MEMORY_BYTES / LINE_BYTES;
  words = new Int32Array(MEMORY_BYTES / 4).fill(0);
  line = 0;

  /** `count` dependent loads; returns 1 (for the caller's sink). */
  load(count) {
    const { words } = this;
    const mask = this.lines - 1;
    const perLine = LINE_BYTES / 4;
    let line = this.line;
    // The value read is always 0, but the core cannot know it before the load completes.
    for (let i = 0; i < count; i += 1) {
      line = (Math.imul(line, 1103515245) + 12345 + words[line * perLine]) & mask;
    }
    this.line = line;
    return 1;
  }
}

/**
 * For `ms`: every BURST_EVERY_MS, for BURST_MS of wall time, units or (every other burst) loads
 * of `memory`, each burst timed by the probe's own CPU time; returns the mean of the units'
 * bursts in CPU µs per unit and of the loads' in CPU ns per load. Started at real-time priority
 * (probeDuring), a burst runs whole, uninterrupted by the server's threads, so it times the
 * core and the memory as they are at that moment. On a fast core the units read about
 * 1.12–1.15× the probe on an idle core (their code and data are cold after the server's turn),
 * about 1.17× since bursts of loads came between them (median of 63 windows on a fast core, 29
 * November 2026); more, and the core was slower.
 */
function bursts(ms, warmSink, memory) {
  let sink = warmSink;
  const sums = { unitUs: 0, units: 0, loadNs: 0, loads: 0 };
  const until = performance.now() + ms;
  for (let burst = 0; performance.now() < until; burst += 1) {
    Atomics.wait(sleeper, 0, 0, BURST_EVERY_MS);
    const loads = burst % 2 === 1;
    const startCpu = process.cpuUsage();
    const start = performance.now();
    let steps = 0;
    while (performance.now() - start < BURST_MS) {
      sink += loads ? memory.load(LOADS_PER_STEP) : unit();
      steps += 1;
    }
    const { user, system } = process.cpuUsage(startCpu);
    if (loads) {
      sums.loadNs += ((user + system) * 1000) / (steps * LOADS_PER_STEP);
      sums.loads += 1;
    } else {
      sums.unitUs += (user + system) / steps;
      sums.units += 1;
    }
  }
  if (sink === 0) throw new Error('unreachable: every unit adds 40');
  return {
    unitUs: sums.unitUs / sums.units,
    loadNs: sums.loads > 0 ? sums.loadNs / sums.loads : NaN,
  };
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
 * then), `done` to `{ unitUs, loadNs }`, its CPU µs per unit and ns per memory load (`bursts`).
 * It tells whether the core or the memory slowed during the window, which the probes before and
 * after cannot see (docs/benchmark-stability.md); at real-time priority the steady-core gate
 * uses it to keep or re-run the window (steady-core.mjs).
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
  const done = exited.then(() => {
    const [unitUs, loadNs] = out.slice('ready\n'.length).trim().split(' ').map(Number);
    return { unitUs, loadNs };
  });
  done.catch(() => {}); // awaited by the caller once the window is measured, unless `ready` failed
  return { ready, done };
}

if (process.argv[1] === self) {
  const during = process.argv[3] === 'during';
  const figure = work(Number(process.argv[2] ?? PROBE_MS), during);
  process.stdout.write(
    during ? `${figure.unitUs.toFixed(3)} ${figure.loadNs.toFixed(2)}\n` : `${figure.toFixed(3)}\n`,
  );
}
