// The machine probe beside the server during a window (scripts/bench/machine-probe.mjs), run
// for real: in short bursts, so it takes little of the server's core, and at real-time
// priority where the machine allows it. The probes before and after a window run in
// bench-smoke.test.mjs.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { probeDuring, realTimeProbe } from '../bench/machine-probe.mjs';

const probe = fileURLToPath(new URL('../bench/machine-probe.mjs', import.meta.url));
const run = promisify(execFile);

describe('the probe during a window', () => {
  it('works in bursts: over 2 s it takes a small share of its core, and prints its CPU per unit and per memory load', async () => {
    // bash's `times` prints the CPU time of the shell's children: the probe's, start-up included.
    const { stdout } = await run('bash', [
      '-c',
      `"${process.execPath}" "${probe}" 2000 during; times`,
    ]);
    const [ready, figures, , children] = stdout.trim().split('\n');
    expect(ready).toBe('ready');
    const [perUnit, perLoad] = figures.split(' ').map(Number);
    expect(perUnit).toBeGreaterThan(0);
    // Each load waits for the one before it, from memory no cache holds: the memory's latency,
    // tens of nanoseconds at least on any machine (a load a cache answers takes a few).
    expect(perLoad).toBeGreaterThan(30);
    const [user, system] = children.split(' ').map((time) => {
      const [, minutes, seconds] = /^(\d+)m([\d.]+)s$/.exec(time);
      return Number(minutes) * 60 + Number(seconds);
    });
    // Eight bursts of 2 ms, the warm-up, writing the 256 MiB the loads walk and Node's start-up:
    // well under a quarter of the 2 s. A probe that worked throughout, as the one at the lowest
    // priority did, took all of it on an idle core.
    expect(user + system).toBeLessThan(0.5);
  });

  it('runs at real-time priority where chrt -f is permitted, and resolves to its figure', async () => {
    const allowed = await run('chrt', ['-f', '1', 'true']).then(
      () => true,
      () => false,
    );
    expect(await realTimeProbe()).toBe(allowed);
    const during = probeDuring({ core: 0, ms: 1500 });
    await during.ready;
    // The probe's process, as the kernel schedules it.
    const { stdout: pids } = await run('pgrep', ['-f', `${probe} 1500 during`]);
    const { stdout: policy } = await run('chrt', ['-p', pids.trim().split('\n')[0]]);
    expect(policy).toContain(allowed ? 'SCHED_FIFO' : 'SCHED_OTHER');
    const { unitUs, loadNs } = await during.done;
    expect(unitUs).toBeGreaterThan(0);
    expect(loadNs).toBeGreaterThan(30);
  });
});
