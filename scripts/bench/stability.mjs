// How steady the cost per request is across the rounds of several runs of `npm run bench`:
//
//   node scripts/bench/stability.mjs run1.json run2.json …   (each written by --json)
//
// Per store, scenario and target: CPU per request over every round of every run (lowest,
// highest, and (highest − lowest) ÷ median), each run's median, and the same for probe units
// per request (CPU per request ÷ the window's machine probe, machine-probe.mjs), CPU per request
// ÷ the probe that ran beside the server during the window, CPU per request in each window's
// cheapest half-seconds (its 10th percentile, measure.mjs), and CPU per request over only the
// windows measured on the fast core (both probes within 10 % of the fastest probe of all the
// runs, and, where it ran at real-time priority, the probe in bursts during the window within
// 7 % of its run's lowest, as the steady-core gate judges it, and its memory loads within 7 % of
// the lowest of all the runs). Printed as Markdown. The aim it checks: within 15 % across rounds
// and runs.
//
// The memory loads are judged against all the runs' lowest, not their own run's as the gate
// must: they time the machine's memory, 256 MiB that no cache holds, so a reading from one run
// holds for another of the same scenarios, and a run whose memory was slow throughout (its
// lowest slow too) is then seen as such. The target's data moves them a little: beside stores
// of a million pets they read a few percent slower (docs/benchmark-stability.md).
//
// The probe during the window sees the core's speed while the target runs, where the probes
// before and after see it seconds away (the core's speed changes within seconds), so dividing
// by it leaves out more of the machine's swings. Its bursts also find the core's caches full of
// the target's data, more so for one target than another, so it is a figure for one target
// across rounds and runs, never for a ratio between targets; the report does not use it. JSON
// without `meta.probeDuring` (runs before 29 November 2026, 12:40 UTC) holds the older probe at
// the lowest priority there, which did not follow creates' cost (docs/benchmark-stability.md).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { BURSTS_AT_REAL_TIME } from './machine-probe.mjs';
import { median } from './report.mjs';
import { burstsFast, FAST_CORE, FAST_DURING, FAST_MEMORY, memoryFast } from './steady-core.mjs';

/** The aim: CPU per request within this share of its median across rounds and runs. */
export const STABLE_WITHIN = 0.15;

/** Lowest, highest, their spread ÷ median, and each run's median, of one figure. */
function figure(runs, pick) {
  const perRun = runs.map((rounds) => rounds.map(pick).filter(Number.isFinite));
  const all = perRun.flat();
  if (all.length === 0) return null;
  const low = Math.min(...all);
  const high = Math.max(...all);
  return { low, high, spread: (high - low) / median(all), runMedians: perRun.map(median) };
}

/** The reports whose probe in bursts ran at real-time priority, as the steady-core gate requires. */
const realTimeBursts = (reports) =>
  reports.filter((report) => report.meta?.probeDuring === BURSTS_AT_REAL_TIME);

/**
 * The lowest memory loads' reading (ns per load) of the windows of the reports whose bursts ran
 * at real-time priority; Infinity if none.
 */
function lowestMemoryOf(reports) {
  const loads = realTimeBursts(reports).flatMap((report) =>
    report.rows.flatMap((row) => row.rounds.map((round) => round.memoryNs)),
  );
  return Math.min(...loads.filter(Number.isFinite));
}

/** One row per store, scenario and target present in every report. */
export function stability(reports) {
  const key = (row) => `${row.database}|${row.scenario}|${row.target}`;
  const fastest = Math.min(...reports.map((report) => report.machine?.minUs ?? Infinity));
  // Each run's lowest probe in bursts (the gate judges a window against its own run's), in
  // runs whose bursts ran at real-time priority, as the gate requires; older JSON's probe during
  // the window ran at the lowest priority and read 1.1–3× the others.
  const lowestDuring = new Map();
  for (const report of realTimeBursts(reports)) {
    const rounds = report.rows
      .flatMap((row) => row.rounds)
      .filter((round) => Number.isFinite(round.machineUs?.during));
    const lowest = Math.min(...rounds.map((round) => round.machineUs.during));
    for (const round of rounds) lowestDuring.set(round, lowest);
  }
  // The memory loads likewise only where the bursts ran at real-time priority (at normal
  // priority the server's threads cut into them too), against all those runs' lowest.
  const lowestMemory = lowestMemoryOf(reports);
  const loadsJudged = new Set(
    realTimeBursts(reports).flatMap((report) => report.rows.flatMap((row) => row.rounds)),
  );
  const onFastCore = (round) =>
    round.machineUs !== undefined &&
    Math.max(round.machineUs.before, round.machineUs.after) <= fastest * (1 + FAST_CORE) &&
    (!lowestDuring.has(round) || burstsFast(round.machineUs.during, lowestDuring.get(round))) &&
    (!loadsJudged.has(round) ||
      !Number.isFinite(round.memoryNs) ||
      memoryFast(round.memoryNs, lowestMemory));
  const first = reports[0]?.rows ?? [];
  return first
    .map((row) => {
      const matches = reports.map((report) => report.rows.find((r) => key(r) === key(row)));
      if (matches.some((match) => match === undefined)) return null;
      const runs = matches.map((match) => match.rounds);
      const cpu = figure(runs, (round) => round.cpuPerRequestUs);
      const units = figure(runs, (round) => round.cpuPerRequestUnits);
      const perDuring = figure(runs, (round) =>
        typeof round.machineUs?.during === 'number'
          ? round.cpuPerRequestUs / round.machineUs.during
          : Number.NaN,
      );
      const p10 = figure(runs, (round) => round.cpuPerRequestP10Us);
      const fast = figure(
        runs.map((rounds) => rounds.filter(onFastCore)),
        (round) => round.cpuPerRequestUs,
      );
      return {
        database: row.database,
        scenario: row.scenario,
        title: row.title,
        target: row.target,
        rounds: runs.flat().length,
        cpu,
        units,
        perDuring,
        p10,
        fastRounds: runs.flat().filter(onFastCore).length,
        fast,
        stable: cpu === null ? null : cpu.spread <= STABLE_WITHIN,
      };
    })
    .filter((row) => row !== null);
}

const fixed = (value, digits) => (value === null ? 'n/a' : value.toFixed(digits));
const percent = (share) => `${Math.round(share * 100)} %`;

/** The rows as a Markdown table, then the machine probe's range in each run. */
export function formatStability(reports, rows) {
  const lowestMemory = lowestMemoryOf(reports);
  const lines = [
    `${reports.length} runs: ${reports.map((r) => r.meta.date).join(', ')}`,
    '',
    '| Database | Scenario | Target | rounds | CPU/req, lowest–highest | spread | run medians | probe units/req, lowest–highest | spread | ÷ probe during, lowest–highest | spread | cheapest ½ s (p10), lowest–highest | spread | on the fast core: rounds | CPU/req, lowest–highest | spread |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    const { cpu, units, perDuring, p10 } = row;
    lines.push(
      `| ${row.database} | ${row.title} | ${row.target} | ${row.rounds} | ` +
        `${fixed(cpu.low, 0)}–${fixed(cpu.high, 0)} µs | ${percent(cpu.spread)}${row.stable ? '' : ' ✗'} | ` +
        `${cpu.runMedians.map((m) => fixed(m, 0)).join(', ')} µs | ` +
        (units === null
          ? 'n/a | n/a |'
          : `${fixed(units.low, 1)}–${fixed(units.high, 1)} | ${percent(units.spread)}${units.spread <= STABLE_WITHIN ? '' : ' ✗'} |`) +
        (perDuring === null
          ? ' n/a | n/a |'
          : ` ${fixed(perDuring.low, 1)}–${fixed(perDuring.high, 1)} | ${percent(perDuring.spread)}${perDuring.spread <= STABLE_WITHIN ? '' : ' ✗'} |`) +
        (p10 === null
          ? ' n/a | n/a |'
          : ` ${fixed(p10.low, 0)}–${fixed(p10.high, 0)} µs | ${percent(p10.spread)}${p10.spread <= STABLE_WITHIN ? '' : ' ✗'} |`) +
        ` ${row.fastRounds} | ` +
        (row.fast === null
          ? 'n/a | n/a |'
          : `${fixed(row.fast.low, 0)}–${fixed(row.fast.high, 0)} µs | ${percent(row.fast.spread)}${row.fast.spread <= STABLE_WITHIN ? '' : ' ✗'} |`),
    );
  }
  lines.push('');
  for (const [index, report] of reports.entries()) {
    const m = report.machine;
    lines.push(
      m
        ? `Run ${index + 1}: probe ${fixed(m.minUs, 2)}–${fixed(m.maxUs, 2)} µs per unit (median ${fixed(m.medianUs, 2)}); moved > 10 % within ${m.changed} of ${m.windows} windows`
        : `Run ${index + 1}: no machine probe in this report`,
    );
  }
  lines.push(
    '',
    `✗: spread more than ${STABLE_WITHIN * 100} % of the median across the rounds of these runs. ` +
      `The fast core: rounds whose two probes were both within ${FAST_CORE * 100} % of the fastest probe of these runs (${fixed(Math.min(...reports.map((r) => r.machine?.minUs ?? Infinity)), 2)} µs per unit), ` +
      `and whose probe in bursts during the window, where one ran at real-time priority, was within ${Math.round(FAST_DURING * 100)} % of its run's lowest` +
      (Number.isFinite(lowestMemory)
        ? `, its memory loads within ${Math.round(FAST_MEMORY * 100)} % of these runs' lowest (${fixed(lowestMemory, 1)} ns per load).`
        : '.'),
  );
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    process.stderr.write('usage: node scripts/bench/stability.mjs run1.json [run2.json …]\n');
    process.exit(2);
  }
  const reports = files.map((file) => JSON.parse(readFileSync(file, 'utf8')));
  process.stdout.write(formatStability(reports, stability(reports)));
}
