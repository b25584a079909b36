// Measuring on a steady core. A core of this kind of machine (a shared virtual machine)
// changes speed by itself, for tens of seconds at a time (machine-probe.mjs); a window measured
// while it was slow, or while it changed speed, costs up to twice as much CPU per request as
// the same window on the fast core, for every target alike. So the harness measures only on
// the fast core, within a budget of time per window:
//
// - before each attempt it probes the server's core until a probe is within FAST_CORE of the
//   fastest probe of the run so far; while the server's core is slow it also probes the other
//   core and, when that one is fast, moves the server there and the harness to the slow one
//   (either core slows by itself; the deep slowdowns seldom come to both at once);
// - after the warm-up, it probes again and, if the core has slowed, starts over;
// - after the measured run, it probes again and re-runs the window unless both probes around it
//   were fast, and unless the probe that ran in bursts beside the server during it read within
//   FAST_DURING of the lowest such reading of the run so far, and its memory loads within
//   FAST_MEMORY of theirs: the core also slows for seconds inside a window, between two fast
//   probes around it, and the memory slows by itself (machine-probe.mjs, probeDuring).
//
// When the budget is spent, the attempt under way is kept and marked `steady: false`.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { probeMachine } from './machine-probe.mjs';
import { HARNESS_CORE, SERVER_CORE } from './processes.mjs';

/** A probe within this share of the fastest probe of the run is the fast core. */
export const FAST_CORE = 0.1;

/**
 * A window's probe in bursts (`machineUs.during`) within this share of the run's lowest is on
 * the fast core. It reads about 1.13× the probe on an idle core even then (the server's data
 * fills the core's caches; about 1.17× since the bursts of loads came between), hence a gate of
 * its own. 0.07: over three full runs of 29 November
 * 2026 (Node.js 24.21.0, 108 windows), the windows whose bursts read within 7 % of their run's
 * lowest, and whose probes before and after were fast, spread at most 14 % of their median CPU
 * per request, per target and scenario; within 8 %, ours' idempotent creates took 122 and 150
 * µs (bursts 2.7 % and 7.1 % over the lowest) (docs/benchmark-stability.md). A run's first
 * windows are judged against the lowest so far; stability.mjs judges them again at the end.
 */
export const FAST_DURING = 0.07;

/** Whether a probe in bursts reading `us` is within FAST_DURING of `lowest` (the fast core). */
export const burstsFast = (us, lowest) => us <= lowest * (1 + FAST_DURING);

/**
 * A window's memory loads during it (`memoryNs`, ns per load) within this share of the run's
 * lowest: the memory was fast. 0.07: over 100 windows of 10 s of creates and idempotent creates,
 * ours and the naive stack in turn (29 November 2026, Node.js 24.21.0), keeping the windows
 * whose bursts of units were within FAST_DURING narrowed ours' idempotent creates from 32 % to
 * 21 % (highest − lowest over the median), and adding the loads within 7 % of their lowest to
 * 11 % (14 of 25 windows kept); ours' creates 20 % and 13 % (docs/benchmark-stability.md). The
 * loads read a few percent slower beside stores of a million pets: in the first full run with
 * this gate it kept 29 of the scale scenarios' 36 windows off fast memory, its budget spent.
 */
export const FAST_MEMORY = 0.07;

/** Whether memory loads reading `ns` are within FAST_MEMORY of `lowest` (fast memory). */
export const memoryFast = (ns, lowest) => ns <= lowest * (1 + FAST_MEMORY);

/** Default seconds per window for waiting and re-runs (`--steady`). */
export const STEADY_SECONDS = 60;

/** Probes of each core at the start of a data set, so the first windows have a fastest probe to meet. */
const CALIBRATION_PROBES = 5;

/** Moves every thread of process `pid` to `core`. */
async function pinTo(pid, core) {
  await promisify(execFile)('taskset', ['-a', '-cp', String(core), String(pid)]);
}

/**
 * The core gate of one run: every probe goes through it, and it keeps the fastest. It knows
 * which core the server has (`serverCore`) and the processes under test (`follow`), so it can
 * swap the cores of the server and the harness. `gateDuring`: whether the probe in bursts during
 * a window decides too (only where it runs at real-time priority: at normal priority the
 * server's threads cut into its bursts, and its figure follows their load as much as the core).
 * `probe(core)` (for tests) replaces the machine probe, `pin(pid, core)` the re-pinning, `now`
 * the clock.
 */
export function createCoreGate({
  pinned,
  seconds = STEADY_SECONDS,
  gateDuring = false,
  probe = (core) => probeMachine({ pinned, core }),
  pin = pinTo,
  now = () => performance.now(),
}) {
  let fastest = Infinity;
  let fastestDuring = Infinity;
  let fastestMemory = Infinity;
  let serverCore = SERVER_CORE;
  let pids = [];
  let moves = 0;
  const probeCore = async (core) => {
    const us = await probe(core);
    fastest = Math.min(fastest, us);
    return us;
  };
  const isFast = (us) => us <= fastest * (1 + FAST_CORE);
  // A window's probe in bursts, units and memory loads, each taken into the run's lowest first
  // (so the first window is fast).
  const duringFast = (us, ns) => {
    if (!gateDuring) return true;
    // A figure missing (null, or NaN from a window too short for a burst of loads) decides nothing.
    if (Number.isFinite(us)) fastestDuring = Math.min(fastestDuring, us);
    if (Number.isFinite(ns)) fastestMemory = Math.min(fastestMemory, ns);
    return (
      (!Number.isFinite(us) || burstsFast(us, fastestDuring)) &&
      (!Number.isFinite(ns) || memoryFast(ns, fastestMemory))
    );
  };
  const otherCore = () => (serverCore === SERVER_CORE ? HARNESS_CORE : SERVER_CORE);
  const moveServer = async () => {
    const harnessCore = serverCore;
    serverCore = otherCore();
    for (const pid of pids) await pin(pid, serverCore);
    await pin(process.pid, harnessCore);
    moves += 1;
  };
  return {
    pinned,
    seconds,
    gateDuring,
    isFast,
    /**
     * Whether a window's probe in bursts (`machineUs.during`, µs per unit) was on the fast core
     * and its memory loads (`memoryNs`, ns per load) on fast memory; each becomes the run's
     * lowest when it is lower. True when the gate does not use them, or none ran (unpinned).
     */
    duringFast,
    /** The machine probe on the server's core. */
    read: () => probeCore(serverCore),
    get fastest() {
      return fastest;
    },
    /** The lowest probe in bursts of the run so far (Infinity before the first, or unused). */
    get fastestDuring() {
      return fastestDuring;
    },
    /** The lowest memory loads' reading of the run so far (Infinity before the first, or unused). */
    get fastestMemory() {
      return fastestMemory;
    },
    get serverCore() {
      return serverCore;
    },
    get harnessCore() {
      return otherCore();
    },
    /** Times the server and the harness swapped cores. */
    get moves() {
      return moves;
    },
    /** The processes under test, just started on SERVER_CORE (where `release` leaves the server). */
    follow(targetPids) {
      pids = targetPids;
    },
    /** Once the processes under test are stopped: the harness back on HARNESS_CORE. */
    async release() {
      pids = [];
      if (serverCore !== SERVER_CORE) {
        await pin(process.pid, HARNESS_CORE);
        serverCore = SERVER_CORE;
      }
    },
    /**
     * A few probes of each core before the first window (skipped when the gate is off): probing
     * only the server's core, a run that began while that core was slow took its slow speed
     * for the fast one and measured a window at twice the cost.
     */
    async calibrate() {
      if (seconds === 0) return;
      for (let i = 0; i < CALIBRATION_PROBES; i += 1) {
        await probeCore(serverCore);
        if (pinned) await probeCore(otherCore());
      }
    },
    /**
     * Probes until the server's core is fast (moving the server to the other core when that one
     * is fast instead) or `deadline` (a `now()` reading) has passed. Nothing when the gate is off.
     */
    async waitForFast(deadline) {
      if (seconds === 0) return;
      for (;;) {
        if (isFast(await probeCore(serverCore))) return;
        if (pinned && isFast(await probeCore(otherCore()))) {
          await moveServer();
          return;
        }
        if (now() >= deadline) return;
      }
    },
    now,
  };
}

/**
 * Runs `attempt(before)` on the fast core as the gate's budget allows. `warmUp()` runs before
 * each attempt's probe; `attempt(before)` measures and resolves to a window whose `machineUs`
 * holds that probe, the one after and the one during it (`during`, where one ran), and whose
 * `memoryNs` holds the memory loads during it. Resolves to the kept window with `steady` (its
 * probes before and after on the fast core, and the one during it and its loads where the gate
 * uses those), `attempts`, `waitedSeconds` (probing for a fast core)
 * and `discarded` (what the attempts not kept measured).
 */
export async function onSteadyCore(gate, { warmUp, attempt }) {
  const deadline = gate.now() + gate.seconds * 1000;
  const discarded = [];
  let waitedMs = 0;
  for (let attempts = 1; ; attempts += 1) {
    const waitStarted = gate.now();
    await gate.waitForFast(deadline);
    waitedMs += gate.now() - waitStarted;
    await warmUp();
    const before = await gate.read();
    const inBudget = gate.now() < deadline;
    if (!gate.isFast(before) && inBudget) {
      discarded.push({ machineUs: { before } });
      continue;
    }
    const window = await attempt(before);
    const steady =
      gate.isFast(window.machineUs.before) &&
      gate.isFast(window.machineUs.after) &&
      gate.duringFast(window.machineUs.during, window.memoryNs);
    if (steady || gate.now() >= deadline) {
      return { ...window, steady, attempts, waitedSeconds: waitedMs / 1000, discarded };
    }
    discarded.push({
      cpuPerRequestUs: window.cpuPerRequestUs,
      machineUs: window.machineUs,
      memoryNs: window.memoryNs,
    });
  }
}
