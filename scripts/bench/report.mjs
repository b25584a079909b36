// Medians over rounds, ratios of our server to each baseline, and the printed tables.
import { probeMean } from './machine-probe.mjs';
import { REFERENCE, scenarios } from './scenarios.mjs';
import { burstsFast, FAST_CORE, FAST_DURING, FAST_MEMORY, memoryFast } from './steady-core.mjs';
import { targetFor } from './targets.mjs';

/** What the team optimises for: list and create at least this many times the naive stack. */
export const GOAL = { baseline: 'naive', scenarios: ['list-20', 'create'], ratio: 1.3 };

/** A page at 1,000,000 pets costs at most this many times the same page at 1,000. */
export const SCALE_GOAL = 1.2;

/** Our server's row of the same database and scenario as `row`. */
function oursBeside(rows, row) {
  return rows.find(
    (r) => r.database === row.database && r.scenario === row.scenario && r.target === 'ours',
  );
}

export function median(values) {
  const sorted = values.filter((v) => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** (max − min) / median of a figure over rounds; null when a round lacks it. */
function spreadOf(values) {
  if (values.some((v) => v === null || !Number.isFinite(v))) return null;
  return (Math.max(...values) - Math.min(...values)) / median(values);
}

/**
 * One row per database, scenario and target: its rounds, their medians (peak RSS: the
 * highest), the spreads over rounds ((max − min) / median) of req/s, of CPU per request and of
 * CPU per request in probe units, and for a baseline the ratios of our server to it, each the
 * median of the per-round ratios (a round's targets ran back to back).
 */
export function summarise(measurements) {
  const groups = new Map();
  for (const m of measurements) {
    const key = `${m.database}|${m.scenario}|${m.target}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(m);
  }
  const rows = [...groups.values()].map((rounds) => {
    const { database, scenario, target } = rounds[0];
    const pick = (field) => rounds.map((round) => round[field]);
    const reqPerSec = median(pick('reqPerSec'));
    return {
      database,
      scenario,
      title: scenarios.find((s) => s.name === scenario).title,
      target,
      rounds: rounds.map(({ database: _d, scenario: _s, target: _t, ...round }) => round),
      median: {
        reqPerSec,
        p50Ms: median(pick('p50Ms')),
        meanMs: median(pick('meanMs')),
        p99Ms: median(pick('p99Ms')),
        cpuPerRequestUs: median(pick('cpuPerRequestUs')),
        cpuPerRequestUnits: median(pick('cpuPerRequestUnits')),
        cpuPerRequestP10Us: median(pick('cpuPerRequestP10Us')),
        machineUs: median(rounds.map((round) => probeMean(round.machineUs))),
        cpuShare: median(pick('cpuShare')),
        peakRssMiB: Math.max(...pick('peakRssMiB')),
        harnessCpuShare: median(pick('harnessCpuShare')),
        othersOnServerCore: median(pick('othersOnServerCore')),
        othersOnHarnessCore: median(pick('othersOnHarnessCore')),
      },
      spread: spreadOf(pick('reqPerSec')),
      cpuSpread: spreadOf(pick('cpuPerRequestUs')),
      unitsSpread: spreadOf(pick('cpuPerRequestUnits')),
      p10Spread: spreadOf(pick('cpuPerRequestP10Us')),
      unexpected: pick('unexpected').reduce((a, b) => a + b, 0),
      errors: pick('errors').reduce((a, b) => a + b, 0),
      vsOurs: null,
    };
  });
  for (const row of rows) {
    const ours = oursBeside(rows, row);
    if (!ours || row === ours) continue;
    const perRound = (ratio) =>
      median(row.rounds.map((round, i) => (ours.rounds[i] ? ratio(ours.rounds[i], round) : null)));
    row.vsOurs = {
      reqPerSec: perRound((o, b) => o.reqPerSec / b.reqPerSec),
      requestsPerCpuSecond: perRound((o, b) => b.cpuPerRequestUs / o.cpuPerRequestUs),
      // The same in probe units: the two windows ran seconds apart, but the core may have
      // changed speed in between (machine-probe.mjs).
      requestsPerProbeUnit: perRound((o, b) => b.cpuPerRequestUnits / o.cpuPerRequestUnits),
      // The same from each window's cheapest half-seconds (measure.mjs, `cpuPerRequestP10Us`).
      requestsPerCpuSecondP10: perRound((o, b) =>
        o.cpuPerRequestP10Us && b.cpuPerRequestP10Us
          ? b.cpuPerRequestP10Us / o.cpuPerRequestP10Us
          : null,
      ),
    };
  }
  return rows;
}

/**
 * Below this share of a core, a target was not the bottleneck of its own run: it waited on
 * the disk, the database, the load generator or other processes, and its req/s understates it.
 */
export const CPU_BOUND = 0.9;

/**
 * The goal per database and scenario: both ratios of ours to the naive stack. `met` is true
 * when both reach the goal, false when neither does, null when they disagree (then look at
 * which side was not CPU-bound).
 */
export function goal(rows) {
  return rows
    .filter((row) => row.target === GOAL.baseline && GOAL.scenarios.includes(row.scenario))
    .filter((row) => row.vsOurs !== null)
    .map((row) => {
      const ours = oursBeside(rows, row);
      const reached = [row.vsOurs.reqPerSec, row.vsOurs.requestsPerCpuSecond].map(
        (ratio) => ratio >= GOAL.ratio,
      );
      return {
        database: row.database,
        scenario: row.scenario,
        ratio: row.vsOurs.reqPerSec,
        cpuRatio: row.vsOurs.requestsPerCpuSecond,
        unitsRatio: row.vsOurs.requestsPerProbeUnit,
        p10Ratio: row.vsOurs.requestsPerCpuSecondP10,
        cpuShare: { ours: ours.median.cpuShare, naive: row.median.cpuShare },
        met: reached[0] === reached[1] ? reached[0] : null,
      };
    });
}

/**
 * Per database and scale scenario: what our server's page at 1,000,000 pets costs beside the
 * same kind of page at 1,000 pets, from the same rounds (the reference ran right after ours in
 * each). Each figure is the median of the per-round ratios: CPU per request and mean latency.
 */
export function scale(rows) {
  return rows
    .filter((row) => row.target === REFERENCE)
    .map((reference) => {
      const ours = oursBeside(rows, reference);
      const perRound = (field) =>
        median(
          reference.rounds.map((round, i) =>
            ours.rounds[i] ? ours.rounds[i][field] / round[field] : null,
          ),
        );
      const cpuRatio = perRound('cpuPerRequestUs');
      const latencyRatio = perRound('meanMs');
      return {
        database: reference.database,
        scenario: reference.scenario,
        cpuRatio,
        latencyRatio,
        met: cpuRatio !== null && cpuRatio <= SCALE_GOAL,
      };
    });
}

/** Above this change between a window's two probes, the core's speed changed during it. */
export const MACHINE_CHANGE = 0.1;

/** What the machine probe saw over the run: the core's speed, how often it changed, and the gate's work. */
export function machineSummary(rows) {
  const windows = rows.flatMap((row) => row.rounds);
  const probes = windows.flatMap((round) => [round.machineUs.before, round.machineUs.after]);
  const minUs = Math.min(...probes);
  const during = windows.map((round) => round.machineUs.during).filter(Number.isFinite);
  const minDuringUs = during.length > 0 ? Math.min(...during) : null;
  const loads = windows.map((round) => round.memoryNs).filter(Number.isFinite);
  const minMemoryNs = loads.length > 0 ? Math.min(...loads) : null;
  const changed = windows.filter(
    ({ machineUs: { before, after } }) =>
      Math.abs(after - before) / Math.min(before, after) > MACHINE_CHANGE,
  ).length;
  return {
    windows: windows.length,
    medianUs: median(probes),
    minUs,
    maxUs: Math.max(...probes),
    changed,
    // The probe in bursts during each window (null when none ran): the run's lowest reading,
    // and how many windows read within FAST_DURING of it (judged at the end, against the whole
    // run, where the gate judged each window against the lowest so far).
    minDuringUs,
    duringFast:
      minDuringUs === null ? null : during.filter((us) => burstsFast(us, minDuringUs)).length,
    // Its bursts of memory loads likewise (null in runs before they were measured).
    minMemoryNs,
    memoryFast:
      minMemoryNs === null ? null : loads.filter((ns) => memoryFast(ns, minMemoryNs)).length,
    // The steady-core gate (steady-core.mjs): windows measured again, seconds spent waiting for
    // the fast core, windows kept when its budget ran out, and windows whose two probes were
    // within FAST_CORE of the run's fastest probe (judged at the end, against the whole run).
    reruns: windows.reduce((sum, round) => sum + (round.attempts ?? 1) - 1, 0),
    waitedSeconds: windows.reduce((sum, round) => sum + (round.waitedSeconds ?? 0), 0),
    keptUnsteady: windows.filter((round) => round.steady === false).length,
    onFastCore: windows.filter(
      ({ machineUs: { before, after } }) => Math.max(before, after) <= minUs * (1 + FAST_CORE),
    ).length,
  };
}

function machineLine(m, steadySeconds, gateDuring) {
  return (
    `Machine probe on the server's core, before and after each window: ${num(m.minUs, 2)}–${num(m.maxUs, 2)} µs ` +
    `per unit (median ${num(m.medianUs, 2)}, ${times(m.maxUs / m.minUs)} from fastest to slowest); it moved by more than ` +
    `${MACHINE_CHANGE * 100} % within ${m.changed} of ${m.windows} windows. ` +
    (steadySeconds > 0
      ? `Steady core (--steady ${steadySeconds}, ` +
        (gateDuring
          ? `the probes before and after each window and the one in bursts during it, units and memory loads`
          : 'the probes before and after each window') +
        `): ${m.reruns} attempts measured again, ${num(m.waitedSeconds)} s waiting for the fast core` +
        ` (the server and the harness swapped cores ${m.moves} times)` +
        ', ' +
        `${m.keptUnsteady} windows kept off it when the budget ran out. `
      : 'Steady core off (--steady 0): every window kept as measured. ') +
    `${m.onFastCore} of ${m.windows} windows had both probes within ${FAST_CORE * 100} % of the run's fastest` +
    (m.minDuringUs === null || m.minDuringUs === undefined
      ? '. '
      : `; ${m.duringFast} had the probe in bursts within ${Math.round(FAST_DURING * 100)} % of the run's lowest (${num(m.minDuringUs, 2)} µs)` +
        (m.minMemoryNs === null || m.minMemoryNs === undefined
          ? '. '
          : `, ${m.memoryFast} its memory loads within ${Math.round(FAST_MEMORY * 100)} % of theirs (${num(m.minMemoryNs, 1)} ns per load). `)) +
    "Probe units per request = CPU per request ÷ the window's probe: a request's cost with the core's own changes of speed left out."
  );
}

/** The cost of waking a process on the other core, at the run's start and end (wake-up.mjs). */
function wakeUpLine({ start, end }) {
  const at = ({ across, oneCore }) =>
    `${num(across.roundTripUs, 1)} µs (${num(across.senderCpuUs, 1)} µs of the sender's CPU) across, ` +
    `${num(oneCore.roundTripUs, 1)} µs on one core`;
  return (
    `Wake-up across cores (a byte's round trip through pipes): ${at(start)} at start` +
    (end ? `; ${at(end)} at end` : '') +
    '. A target that writes each answer on its own may wake the load generator, on the other core, once per answer.'
  );
}

function dearerLine({ above, replacedRounds: replaced }, rounds) {
  const rule = `a process over ${times(above)} its target's cheapest round (median over the scenarios)`;
  if (rounds < 2) return `Dearer processes: one round, nothing to compare (${rule} needs two).`;
  if (replaced.length === 0)
    return `Dearer processes: none (${rule} has its round measured again).`;
  const which = replaced.map(
    (r) => `${r.database} round ${r.round} (${targetFor(r.target).title} at ${times(r.factor)})`,
  );
  return `Dearer processes (${rule}): ${replaced.length} round(s) measured again with new processes: ${which.join(', ')}.`;
}

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const num = (value, digits = 0) =>
  value === null || !Number.isFinite(value)
    ? 'n/a'
    : digits === 0
      ? whole.format(value)
      : value.toFixed(digits);
const percent = (share) => (share === null ? 'n/a' : `${num(share * 100)} %`);
const times = (ratio) => (ratio === null ? '—' : `${ratio.toFixed(2)}×`);

/**
 * The heap's spaces that hold at least 0.1 MiB at either end, largest last first, then the
 * memory outside it and RSS, each `first → last` in MiB.
 */
function heapLine({ first, last }) {
  const pair = (a, b) => `${num(a, 1)} → ${num(b, 1)}`;
  const spaces = Object.keys(last.spacesMiB)
    .filter((space) => Math.max(first.spacesMiB[space] ?? 0, last.spacesMiB[space]) >= 0.1)
    .sort((a, b) => last.spacesMiB[b] - last.spacesMiB[a])
    .map((space) => `${space} ${pair(first.spacesMiB[space] ?? 0, last.spacesMiB[space])}`);
  return (
    `${spaces.join(', ')} MiB (each space's size); external ${pair(first.externalMiB, last.externalMiB)} MiB; ` +
    `RSS ${pair(first.rssMiB, last.rssMiB)} MiB`
  );
}

/** The whole report as Markdown-ready text. */
export function formatReport(report) {
  const { meta, startup, rows, soaks } = report;
  const ours =
    `ours: NODE_ENV=production, LOG_LEVEL=${meta.logLevel} to ${meta.logTo === 'pipe' ? 'a pipe the harness copies to a file' : 'a file'}, in-memory rate limits` +
    (meta.poolSize === undefined ? '' : `, DATABASE_POOL_SIZE=${meta.poolSize}`) +
    (meta.nodeOptions === undefined ? '' : `, NODE_OPTIONS=${meta.nodeOptions}`);
  const load =
    meta.soak > 0
      ? `${meta.warmUp} s warm-up, then a ${meta.soak} s soak`
      : `${meta.warmUp} s warm-up + ${meta.duration} s measured per target and scenario, ` +
        `${meta.rounds} alternating round(s) of fresh processes` +
        (meta.processWarmUp > 0 ? ` (each loaded ${meta.processWarmUp} s first)` : '') +
        ', medians';
  const lines = [
    '',
    `Pet Store benchmark — node ${meta.node}, ${meta.cores} cores, ${meta.pinning}; ` +
      `load average ${meta.loadAverage.start.join(' ')} at start, ${meta.loadAverage.end.join(' ')} at end`,
    `${meta.connections} connections; ${load}; ${ours}`,
  ];
  if (meta.wakeUp) lines.push(wakeUpLine(meta.wakeUp));
  if (meta.probeDuring)
    lines.push(`Probe beside the server during each window: ${meta.probeDuring}`);
  if (meta.otlpSink) {
    lines.push(
      `ours, tracing on: every span exported (OTLP/HTTP, protobuf) to a sink in the harness, ` +
        `which received ${num(meta.otlpSink.exports)} exports, ${num(meta.otlpSink.bytes / 1048576, 1)} MiB`,
    );
  }
  if (startup.length > 0) {
    lines.push('', '| Start-up (spawn → ready) | Database | ready when | median | runs |');
    lines.push('| --- | --- | --- | ---: | --- |');
    for (const s of startup) {
      const when = s.readiness === 'log' ? '"listening" logged' : 'GET /healthz answers';
      const runs = s.runsMs.map((ms) => num(ms)).join(', ');
      lines.push(
        `| ${targetFor(s.target).title} | ${s.database} | ${when} | ${num(s.medianMs)} ms | ${runs} |`,
      );
    }
  }
  if (rows.length > 0) {
    lines.push(
      '',
      '| Database | Scenario | Target | req/s | spread | p50 | p99 | server CPU | CPU/req | spread | probe units/req | spread | CPU/req, cheapest ½ s (p10) | spread | peak RSS | ours ÷ target (req/s) | ours ÷ target (req/CPU-s) | ours ÷ target (p10) |',
      '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const row of rows) {
      const m = row.median;
      const flag = row.unexpected + row.errors > 0 ? ` ⚠ ${row.unexpected + row.errors} bad` : '';
      lines.push(
        `| ${row.database} | ${row.title} | ${targetFor(row.target).title}${flag} | ${num(m.reqPerSec)} | ` +
          `${percent(row.spread)} | ${num(m.p50Ms)} ms | ${num(m.p99Ms)} ms | ${num(m.cpuShare * 100)} % | ` +
          `${num(m.cpuPerRequestUs)} µs | ${percent(row.cpuSpread)} | ${num(m.cpuPerRequestUnits, 1)} | ${percent(row.unitsSpread)} | ` +
          `${num(m.cpuPerRequestP10Us)} µs | ${percent(row.p10Spread)} | ` +
          `${num(m.peakRssMiB)} MiB | ${times(row.vsOurs?.reqPerSec ?? null)} | ${times(row.vsOurs?.requestsPerCpuSecond ?? null)} | ` +
          `${times(row.vsOurs?.requestsPerCpuSecondP10 ?? null)} |`,
      );
    }
  }
  if (rows.length > 0) {
    const all = (field) => median(rows.map((row) => row.median[field]));
    const others = meta.pinned
      ? ` Other processes took a median ${num(all('othersOnServerCore') * 100)} % of the server's core and ` +
        `${num(all('othersOnHarnessCore') * 100)} % of the harness's core (the harness itself: ` +
        `${num(all('harnessCpuShare') * 100)} %).`
      : '';
    lines.push(
      '',
      `Server CPU below ${CPU_BOUND * 100} %: the target was not the bottleneck of its run (it waited on the disk, ` +
        'the database, the load generator or other processes) and its req/s understates it; req/CPU-s compares ' +
        `what each request costs.${others}`,
      '',
      machineLine(report.machine, meta.steady, meta.gateDuring),
      '',
      dearerLine(report.dearer, meta.rounds),
    );
  }
  if (report.goal.length > 0) lines.push('');
  for (const g of report.goal) {
    const verdict = g.met === null ? 'the two ratios disagree' : g.met ? 'met' : 'not met';
    const notBound = Object.entries(g.cpuShare)
      .filter(([, share]) => share < CPU_BOUND)
      .map(([name, share]) => `${name} at ${num(share * 100)} % CPU`);
    lines.push(
      `Goal ${g.database} ${g.scenario}: ours ÷ naive = ${times(g.ratio)} req/s, ${times(g.cpuRatio)} req/CPU-s, ` +
        `${times(g.unitsRatio)} in probe units, ${times(g.p10Ratio)} in the cheapest half-seconds ` +
        `(goal ≥ ${GOAL.ratio}×: ${verdict})${notBound.length ? `; not CPU-bound: ${notBound.join(', ')}` : ''}`,
    );
  }
  if (report.scale.length > 0) lines.push('');
  for (const s of report.scale) {
    const title = scenarios.find((scenario) => scenario.name === s.scenario).title;
    lines.push(
      `Scale ${s.database} ${title}: ours at 1,000,000 pets ÷ at 1,000 = ${times(s.cpuRatio)} CPU/req, ` +
        `${times(s.latencyRatio)} mean latency (goal ≤ ${SCALE_GOAL}× CPU/req: ${s.met ? 'met' : 'not met'})`,
    );
  }
  for (const s of soaks) {
    lines.push(
      '',
      `Soak ${s.database}: ${s.seconds} s of ${s.mix.join('/')}, ${num(s.reqPerSec)} req/s, p99 ${num(s.p99Ms)} ms; ` +
        `RSS first ${num(s.firstMiB)} MiB, last ${num(s.lastMiB)} MiB, peak ${num(s.peakMiB)} MiB; ` +
        `slope ${num(s.slopeMiBPerMin, 2)} MiB/min (second half ${num(s.secondHalfSlopeMiBPerMin, 2)}, ` +
        `its floor ${num(s.secondHalfFloorSlopeMiBPerMin, 2)} MiB/min)`,
    );
    if (s.heap) lines.push(`Soak ${s.database} V8 heap, start → end: ${heapLine(s.heap)}`);
  }
  return `${lines.join('\n')}\n`;
}
