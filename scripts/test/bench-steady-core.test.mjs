// The steady-core gate of the benchmark (scripts/bench/steady-core.mjs) on a made-up core:
// the probe's figures and the clock are scripted, so each decision is known.
import { describe, expect, it } from 'vitest';
import { createCoreGate, onSteadyCore } from '../bench/steady-core.mjs';

/**
 * A gate whose probes of core 0 read `speeds` in turn and those of core 1 `other` (the last
 * figure of each repeats; by default core 1 is always slow), each probe taking 0.5 s of a fake
 * clock; a window takes 10 s and a warm-up 3 s, and its CPU per request is ten times the probe
 * before it. `pins` records the re-pinning.
 */
function scripted(speeds, { seconds = 60, other = [1000], during, memory = [] } = {}) {
  let clock = 0;
  const read = [0, 0];
  const pins = [];
  let windows = 0;
  const gate = createCoreGate({
    pinned: true,
    seconds,
    gateDuring: during !== undefined,
    probe: async (core) => {
      clock += 500;
      const figures = core === 0 ? speeds : other;
      const us = figures[Math.min(read[core], figures.length - 1)];
      read[core] += 1;
      return us;
    },
    pin: async (pid, core) => {
      pins.push([pid, core]);
    },
    now: () => clock,
  });
  const window = () =>
    onSteadyCore(gate, {
      warmUp: async () => {
        clock += 3000;
      },
      attempt: async (before) => {
        clock += 10_000;
        const after = await gate.read();
        if (during === undefined)
          return { cpuPerRequestUs: 10 * before, machineUs: { before, after } };
        // The probe in bursts during the window: `during` in turn (the last repeats), and its
        // memory loads `memory` likewise (none when empty).
        const us = during[Math.min(windows, during.length - 1)];
        const ns = memory.length > 0 ? memory[Math.min(windows, memory.length - 1)] : undefined;
        windows += 1;
        return {
          cpuPerRequestUs: 10 * us,
          machineUs: { before, after, during: us },
          ...(ns === undefined ? {} : { memoryNs: ns }),
        };
      },
    });
  return { gate, window, pins, probesRead: () => read[0] + read[1] };
}

describe('bench steady core', () => {
  it('measures at once on a fast core: one attempt, nothing waited or discarded', async () => {
    const { gate, window } = scripted([10]);
    await gate.calibrate();
    expect(gate.fastest).toBe(10);
    expect(await window()).toEqual({
      cpuPerRequestUs: 100,
      machineUs: { before: 10, after: 10 },
      steady: true,
      attempts: 1,
      waitedSeconds: 0.5, // the one probe that found the core fast
      discarded: [],
    });
  });

  it('waits for the core to be within 10 % of the fastest probe before the warm-up', async () => {
    // Calibration finds 10; then three slow probes, then 10.9 (within 10 %).
    const { gate, window } = scripted([10, 10, 10, 10, 10, 15, 15, 15, 10.9]);
    await gate.calibrate();
    const kept = await window();
    expect(kept).toMatchObject({ steady: true, attempts: 1, discarded: [] });
    expect(kept.machineUs).toEqual({ before: 10.9, after: 10.9 });
    expect(kept.waitedSeconds).toBe(3.5); // three slow probes, each with one of the slow core 1, then a fast one
  });

  it('measures a window again when the core slowed during it, and keeps the steady one', async () => {
    // Before fast, after slow: discarded. Then fast around the second attempt.
    const { window } = scripted([10, 10, 16, 10, 10, 10]);
    const kept = await window();
    expect(kept).toMatchObject({ steady: true, attempts: 2, machineUs: { before: 10, after: 10 } });
    expect(kept.discarded).toEqual([
      { cpuPerRequestUs: 100, machineUs: { before: 10, after: 16 } },
    ]);
  });

  it('starts over without measuring when the core slowed during the warm-up', async () => {
    // Wait: 10. After the warm-up: 14 (slow), discarded before any load. Then fast.
    const { window } = scripted([10, 14, 10, 10, 10]);
    const kept = await window();
    expect(kept).toMatchObject({ steady: true, attempts: 2 });
    expect(kept.discarded).toEqual([{ machineUs: { before: 14 } }]);
  });

  it('keeps the attempt under way, marked unsteady, once the budget is spent', async () => {
    // Fastest 10 from calibration, then the core stays slow: the wait ends at the budget (20 s),
    // and the attempt after it is kept.
    const { gate, window } = scripted([10, 10, 10, 10, 10, 20], { seconds: 20 });
    await gate.calibrate();
    const kept = await window();
    expect(kept).toMatchObject({
      steady: false,
      attempts: 1,
      machineUs: { before: 20, after: 20 },
    });
    expect(kept.waitedSeconds).toBe(20); // 20 rounds of a probe of each core
  });

  it('moves the server to the other core when only its own is slow, and the harness to the slow one', async () => {
    // Core 0 fast at calibration, then slow; core 1 fast.
    const { gate, window, pins } = scripted([10, 10, 10, 10, 10, 16], { other: [10.5] });
    gate.follow([101, 102]);
    await gate.calibrate();
    const kept = await window();
    expect(kept).toMatchObject({
      steady: true,
      attempts: 1,
      machineUs: { before: 10.5, after: 10.5 },
    });
    expect(gate.serverCore).toBe(1);
    expect(gate.harnessCore).toBe(0);
    expect(gate.moves).toBe(1);
    expect(pins).toEqual([
      [101, 1],
      [102, 1],
      [process.pid, 0],
    ]);
    // Once the targets are stopped, the harness goes back to its core for the next data set.
    await gate.release();
    expect(gate.serverCore).toBe(0);
    expect(pins.at(-1)).toEqual([process.pid, 1]);
  });

  it('calibrates on both cores, so a run begun while the server core is slow still finds the fast one', async () => {
    // Core 0 slow (16) from the start, core 1 fast (9.5): the fastest probe is core 1's, so the
    // first window waits no longer than one probe of each and moves the server to core 1.
    const { gate, window, probesRead } = scripted([16], { other: [9.5] });
    gate.follow([101]);
    await gate.calibrate();
    expect(probesRead()).toBe(10); // five of each core
    expect(gate.fastest).toBe(9.5);
    const kept = await window();
    expect(kept).toMatchObject({
      steady: true,
      attempts: 1,
      machineUs: { before: 9.5, after: 9.5 },
    });
    expect(gate.serverCore).toBe(1);
  });

  it('with --steady 0 measures once and never waits or calibrates', async () => {
    const { gate, window, probesRead } = scripted([10, 20], { seconds: 0 });
    await gate.calibrate();
    expect(probesRead()).toBe(0);
    const kept = await window();
    expect(kept).toMatchObject({ attempts: 1, waitedSeconds: 0, steady: false, discarded: [] });
    expect(probesRead()).toBe(2); // only the probes around the window
  });

  it('measures a window again when the probe in bursts read slow during it, between two fast probes', async () => {
    // Bursts: 11 (the run's lowest so far), 11.7 (within 7 %), 11.8 (7.3 % over: measured
    // again), then 10.5 (a new lowest).
    const { gate, window } = scripted([10], { during: [11, 11.7, 11.8, 10.5] });
    expect(await window()).toMatchObject({ steady: true, attempts: 1 });
    expect(gate.fastestDuring).toBe(11);
    expect(await window()).toMatchObject({ steady: true, attempts: 1 });
    const third = await window();
    expect(third).toMatchObject({ steady: true, attempts: 2, machineUs: { during: 10.5 } });
    expect(third.discarded).toEqual([
      { cpuPerRequestUs: 118, machineUs: { before: 10, after: 10, during: 11.8 } },
    ]);
    expect(gate.fastestDuring).toBe(10.5);
  });

  it('measures a window again when its memory loads read slow, with the core fast throughout', async () => {
    // Loads: 200 ns (the lowest so far), 214 (within 7 %), 215 (7.5 % over: measured again
    // though the bursts of units read their lowest), then 190 (a new lowest).
    const { gate, window } = scripted([10], { during: [11], memory: [200, 214, 215, 190] });
    expect(await window()).toMatchObject({ steady: true, attempts: 1, memoryNs: 200 });
    expect(gate.fastestMemory).toBe(200);
    expect(await window()).toMatchObject({ steady: true, attempts: 1, memoryNs: 214 });
    const third = await window();
    expect(third).toMatchObject({ steady: true, attempts: 2, memoryNs: 190 });
    expect(third.discarded).toEqual([
      { cpuPerRequestUs: 110, machineUs: { before: 10, after: 10, during: 11 }, memoryNs: 215 },
    ]);
    expect(gate.fastestMemory).toBe(190);
    expect(gate.fastestDuring).toBe(11);
  });

  it('keeps a window with slow bursts, marked unsteady, once the budget is spent', async () => {
    const { gate, window } = scripted([10], { seconds: 20, during: [11, 13] });
    await window();
    const kept = await window();
    // Two attempts (0.5 + 3 + 10 + 0.5 s each): the second ends past the 20 s budget.
    expect(kept).toMatchObject({ steady: false, attempts: 2, machineUs: { during: 13 } });
    expect(gate.fastestDuring).toBe(11);
  });

  it('leaves the probe in bursts out of the decision when told to (normal priority, or none ran)', async () => {
    const gate = createCoreGate({ pinned: true, probe: async () => 10, now: () => 0 });
    expect(gate.duringFast(50)).toBe(true);
    expect(gate.fastestDuring).toBe(Infinity);
    const using = createCoreGate({
      pinned: true,
      gateDuring: true,
      probe: async () => 10,
      now: () => 0,
    });
    expect(using.duringFast(null)).toBe(true);
    expect(using.duringFast(12)).toBe(true);
    expect(using.duringFast(13)).toBe(false);
    // Memory loads: judged on their own lowest, beside the units; absent, they do not decide.
    expect(using.duringFast(12, 200)).toBe(true);
    expect(using.duringFast(12, 215)).toBe(false);
    expect(using.duringFast(13, 200)).toBe(false);
    expect(using.duringFast(null, 214)).toBe(true);
    // A window too short for a burst of loads reads NaN: it neither decides nor sets the lowest.
    expect(using.duringFast(12, Number.NaN)).toBe(true);
    expect(using.fastestMemory).toBe(200);
    expect(gate.duringFast(50, 900)).toBe(true);
    expect(gate.fastestMemory).toBe(Infinity);
  });
});
