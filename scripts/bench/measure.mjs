// One measured window: autocannon in this process (pinned to the harness core) loads a
// target while /proc tells what the target process spent.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { probeDuring, probeMean } from './machine-probe.mjs';
import { expectedStatuses } from './scenarios.mjs';
import { onSteadyCore } from './steady-core.mjs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, usually 100). */
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** Length of a slice of the measured window, in ms: CPU per request is also read slice by slice. */
export const SLICE_MS = 500;

/** The quantile of the slices' CPU per request that a window reports (`cpuPerRequestP10Us`). */
export const SLICE_QUANTILE = 0.1;

/** A new client address (10.0.0.0/8) for each anonymous request. */
let addresses = 0;
const nextAddress = () => {
  addresses = (addresses + 1) % 0xffffff;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

/**
 * The autocannon request for `scenario`, with our key unless the scenario is anonymous; an
 * anonymous request comes from a new address each time (X-Forwarded-For), as many different
 * callers without a key would, so none of them reaches the per-address limit.
 */
export function requestFor(scenario, apiKey) {
  return {
    method: scenario.method,
    path: scenario.path,
    headers: {
      ...(scenario.anonymous ? {} : { authorization: `Bearer ${apiKey}` }),
      ...(scenario.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(scenario.body ? { body: scenario.body } : {}),
    ...(scenario.idempotent
      ? {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, 'idempotency-key': `"${randomUUID()}"` },
          }),
        }
      : {}),
    ...(scenario.anonymous
      ? {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, 'x-forwarded-for': nextAddress() },
          }),
        }
      : {}),
  };
}

/** Runs autocannon for `seconds`; each connection cycles through `requests`. */
export function load({ port, requests, connections, seconds }) {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests,
  });
}

/**
 * One measured window of `scenario` on `target`, on the fast core as `gate` allows
 * (steady-core.mjs): a warm-up (not reported: JIT, caches, connections), then the measured
 * run. Peak RSS is reset just before it, so it is this run's peak. CPU per request is the
 * server's utime + stime over the measured interval divided by the requests answered in it.
 * The machine probe runs on the server's core (idle then) right before and right after the
 * measured run: CPU per request divided by the mean of the two probes is the request's cost in
 * probe units, which the core's own changes of speed leave out (machine-probe.mjs). A third
 * probe runs during it in short bursts (`machineUs.during`, and `memoryNs` for its bursts of
 * memory loads): the steady-core gate judges the window by both too, and stability.mjs divides
 * by the first; the report's ratios leave them out.
 *
 * The window is also cut into half-second slices (`slices`: [answers, server CPU µs] each), and
 * `cpuPerRequestP10Us` is the 10th percentile of their CPU per request: what a request costs in
 * the window's cheapest seconds. The core's slow phases (up to twice the CPU for the same work,
 * machine-probe.mjs) come and go within seconds, and only ever make a slice dearer, so this
 * figure leaves most of them out where the whole window's average keeps them. It also leaves
 * out the target's own occasional costs (a full garbage collection, a timer's work) that fall
 * in dear slices, which is why the whole window's figure stays the report's main one.
 */
export function measure({ gate, target, scenario, apiKey, connections, duration, warmUp }) {
  const requests = [requestFor(scenario, apiKey)];
  return onSteadyCore(gate, {
    warmUp: async () => {
      if (warmUp > 0) await load({ port: target.port, requests, connections, seconds: warmUp });
    },
    attempt: (machineBefore) =>
      measureWindow({ gate, target, scenario, requests, connections, duration, machineBefore }),
  });
}

async function measureWindow({
  gate,
  target,
  scenario,
  requests,
  connections,
  duration,
  machineBefore,
}) {
  const { pinned, serverCore, harnessCore } = gate;
  // A probe in short bursts beside the server during the window (steady-core.mjs).
  const during = pinned ? probeDuring({ core: serverCore, ms: duration * 1000 }) : undefined;
  await during?.ready;
  resetPeakRss(target.pid);
  const cpuBefore = cpuTimes(target.pid);
  const threadsBefore = threadTimes(target.pid);
  const harnessBefore = process.cpuUsage();
  const coresBefore = coreTimes();
  const startedAt = performance.now();
  const running = load({ port: target.port, requests, connections, seconds: duration });
  const slicing = sliceWindow(running, target.pid);
  const result = await Promise.resolve(running).finally(slicing.stop);
  const wallSeconds = (performance.now() - startedAt) / 1000;
  const cpuAfter = cpuTimes(target.pid);
  const threads = threadKinds(target.pid, threadsBefore, threadTimes(target.pid));
  const kernel = cpuAfter.system - cpuBefore.system;
  const cpu = cpuAfter.user - cpuBefore.user + kernel;
  const slices = slicing.end();
  const { user, system } = process.cpuUsage(harnessBefore);
  const harnessCpuShare = (user + system) / 1e6 / wallSeconds;
  const coresBusy = busyShares(coresBefore, coreTimes());
  const answered = result.requests.total;
  const beside = (await during?.done) ?? null;
  const machineAfter = await gate.read();
  const cpuPerRequestUs = answered > 0 ? (cpu / answered) * 1e6 : null;
  const machineUs = { before: machineBefore, after: machineAfter, during: beside?.unitUs ?? null };
  return {
    reqPerSec: answered / result.duration,
    p50Ms: result.latency.p50,
    // autocannon's percentiles are whole milliseconds; the mean is not, so it can be compared.
    meanMs: result.latency.average,
    p99Ms: result.latency.p99,
    cpuPerRequestUs,
    // The core's speed: CPU µs per probe unit before and after, and CPU per request in units.
    machineUs,
    // The memory's speed during the window: CPU ns per dependent load of the probe's bursts.
    memoryNs: Number.isFinite(beside?.loadNs) ? beside.loadNs : null,
    serverCore: pinned ? serverCore : null,
    cpuPerRequestUnits: cpuPerRequestUs === null ? null : cpuPerRequestUs / probeMean(machineUs),
    cpuPerRequestP10Us: sliceQuantile(slices, SLICE_QUANTILE),
    slices,
    cpuShare: cpu / wallSeconds,
    // The kernel's part of that CPU (system calls, TCP, the store's fsyncs), to tell which part
    // of a window's cost moved between rounds (ticks of 10 ms: about 1 % of a busy window).
    kernelShare: cpu > 0 ? kernel / cpu : null,
    // The same CPU by thread (threadKinds), in µs per request.
    threadsUsPerRequest:
      answered > 0
        ? Object.fromEntries(Object.entries(threads).map(([kind, us]) => [kind, us / answered]))
        : null,
    harnessCpuShare,
    // What other processes took of the server's core and of the harness's core meanwhile.
    othersOnServerCore: pinned ? coresBusy[serverCore] - cpu / wallSeconds : null,
    othersOnHarnessCore: pinned ? coresBusy[harnessCore] - harnessCpuShare : null,
    peakRssMiB: memory(target.pid).peakMiB,
    requests: answered,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
    ),
    unexpected: unexpectedAnswers(result, expectedStatuses(scenario, target.name)),
    errors: result.errors + result.timeouts,
    loadAverage: Number(loadavg()[0].toFixed(2)),
  };
}

/**
 * Counts the answers of a running load (autocannon's `response` event) and reads the target's
 * CPU every SLICE_MS; `end()` (once the load is done) returns the slices as [answers, CPU µs].
 * The CPU is each thread's time on a core (/proc/<pid>/task/<tid>/schedstat, in ns): a tick of
 * /proc/<pid>/stat (10 ms) would be 2 % of a busy half-second. The last, shorter slice is kept
 * when it lasted at least half a slice, or when it is the only one (a window shorter than a
 * slice).
 */
function sliceWindow(running, pid) {
  const slices = [];
  let answered = 0;
  let threads = threadTimes(pid);
  let sliceStart = performance.now();
  running.on('response', () => {
    answered += 1;
  });
  let failure;
  const cut = () => {
    const now = threadTimes(pid);
    let ns = 0;
    // A thread that ended since the last reading takes its last part of a slice with it.
    for (const [tid, time] of now) ns += time - (threads.get(tid) ?? 0);
    slices.push([answered, Math.round(ns / 1000)]);
    answered = 0;
    threads = now;
    sliceStart = performance.now();
  };
  // A target gone mid-window fails the window (from end(), where the caller handles it), not
  // the harness from a timer, which would skip its clean-up.
  const timer = setInterval(() => {
    try {
      cut();
    } catch (error) {
      failure ??= error;
    }
  }, SLICE_MS);
  const stop = () => clearInterval(timer);
  return {
    /** Stops the timer, as soon as the load ends (a failed load reports no window). */
    stop,
    end() {
      stop();
      if (failure) throw failure;
      if (performance.now() - sliceStart >= SLICE_MS / 2 || slices.length === 0) cut();
      return slices;
    },
  };
}

/** Each thread's time on a core so far, in ns, by thread id (a thread may end meanwhile). */
function threadTimes(pid) {
  const times = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      times.set(
        tid,
        Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]),
      );
    } catch {
      // ended between the listing and the read
    }
  }
  return times;
}

/**
 * CPU µs of process `pid`'s threads between two threadTimes readings, by kind of thread from
 * its name (/proc/<pid>/task/<tid>/comm): `main` (the JavaScript thread), `v8` (V8's helper
 * threads: `V8Worker`, `DelayedTaskSche…`), `libuv` (`libuv-worker`, the thread pool) and
 * `others` (the rest, such as our store's writer thread on SQLite, a worker_threads Worker).
 */
function threadKinds(pid, before, after) {
  const kinds = { main: 0, v8: 0, libuv: 0, others: 0 };
  for (const [tid, ns] of after) {
    const us = (ns - (before.get(tid) ?? 0)) / 1000;
    let name = '';
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      // ended since: counted with the others
    }
    const kind =
      tid === String(pid)
        ? 'main'
        : /^(V8|DelayedTask)/.test(name)
          ? 'v8'
          : name === 'libuv-worker'
            ? 'libuv'
            : 'others';
    kinds[kind] += us;
  }
  return kinds;
}

/**
 * The quantile `q` (0–1, the nearest rank at or below) of CPU per request over `slices`
 * ([answers, CPU µs] each), in µs; slices without an answer are left out; null without any.
 */
export function sliceQuantile(slices, q) {
  const perRequest = slices
    .filter(([answers]) => answers > 0)
    .map(([answers, cpuUs]) => cpuUs / answers)
    .sort((a, b) => a - b);
  if (perRequest.length === 0) return null;
  return perRequest[Math.floor(q * (perRequest.length - 1))];
}

/** How many answers of an autocannon run had a status not in `expected`. */
export function unexpectedAnswers(result, expected) {
  return Object.entries(result.statusCodeStats)
    .filter(([status]) => !expected.includes(Number(status)))
    .reduce((sum, [, { count }]) => sum + count, 0);
}

/**
 * Seconds of CPU process `pid` has used so far in user space and in the kernel (utime and
 * stime, /proc/<pid>/stat fields 14 and 15).
 */
function cpuTimes(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / ticksPerSecond, system: Number(fields[12]) / ticksPerSecond };
}

/** Per core: [busy, total] clock ticks since boot (/proc/stat; idle and iowait are not busy). */
function coreTimes() {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((line) => /^cpu\d+ /.test(line))
    .map((line) => {
      const [user, nice, system, idle, iowait, irq, softirq, steal] = line
        .split(/\s+/)
        .slice(1)
        .map(Number);
      const busy = user + nice + system + irq + softirq + steal;
      return [busy, busy + idle + iowait];
    });
}

/** Each core's busy share between two coreTimes() readings. */
function busyShares(before, after) {
  return after.map(([busy, total], core) => {
    const elapsed = total - before[core][1];
    return elapsed > 0 ? (busy - before[core][0]) / elapsed : null;
  });
}

/** Resident and peak resident memory (VmRSS, VmHWM) of a process, in MiB. */
export function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mib = (field) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return { rssMiB: mib('VmRSS'), peakMiB: mib('VmHWM') };
}

/** Sets the process's VmHWM back to its current RSS (Linux ≥ 4.0: `5` to clear_refs). */
export function resetPeakRss(pid) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
