// The benchmark run: per database, start-up times, then every selected scenario in
// alternating rounds over every selected target (or, with --soak, the soak), then the report.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { NORMAL_PETS, SCALE_PETS } from './dataset.mjs';
import { copyStore, openStore } from './database.mjs';
import { undoLater, undoOnSignal } from './cleanup.mjs';
import { BenchError } from './errors.mjs';
import { BURSTS_AT_REAL_TIME, realTimeProbe } from './machine-probe.mjs';
import { load, measure, requestFor, unexpectedAnswers } from './measure.mjs';
import { startOtlpSink } from './otlp-sink.mjs';
import { HARNESS_CORE, SERVER_CORE, startProcess } from './processes.mjs';
import { formatReport, goal, machineSummary, median, scale, summarise } from './report.mjs';
import { SOAK_METRICS_TOKEN, soak } from './soak.mjs';
import { DEARER, replaceDearerRounds } from './dearer-process.mjs';
import { createCoreGate } from './steady-core.mjs';
import { expectedStatuses, REFERENCE, scenarioFor } from './scenarios.mjs';
import { targetFor } from './targets.mjs';
import { verify } from './verify.mjs';
import { measureWakeUp } from './wake-up.mjs';

const run = promisify(execFile);

/**
 * Runs the benchmark as `options` says (see scripts/bench.mjs), prints the report and writes
 * it as JSON when asked. Resolves to the report.
 */
export async function runBench(options) {
  // Read before pinning: afterwards this process sees only its own core.
  const cores = availableParallelism();
  const pinned = cores >= 2 && (await commandExists('taskset'));
  // -a: every thread of this process (libuv and V8 threads too); threads made later inherit it.
  if (pinned) await run('taskset', ['-a', '-cp', String(HARNESS_CORE), String(process.pid)]);
  const report = {
    meta: {
      date: new Date().toISOString(),
      node: process.version,
      cores,
      pinned,
      pinning: pinned
        ? `server on core ${SERVER_CORE}, harness and autocannon on core ${HARNESS_CORE}` +
          (options.steady > 0 ? " (swapped while only the server's core is slow)" : '')
        : 'not pinned (needs 2 cores and taskset): expect noisier numbers',
      // How the probe beside the server during each window ran (machine-probe.mjs), and
      // whether the steady-core gate uses it (steady-core.mjs: only at real-time priority).
      probeDuring: !pinned
        ? null
        : (await realTimeProbe())
          ? BURSTS_AT_REAL_TIME
          : 'bursts at normal priority (chrt -f not permitted)',
      gateDuring: pinned && options.steady > 0 && (await realTimeProbe()),
      loadAverage: { start: loadAverage(), end: null },
      ...options,
      scenarios: options.scenarios.map((scenario) => scenario.name),
    },
    startup: [],
    rows: [],
    goal: [],
    scale: [],
    soaks: [],
    // Rounds measured again because a process in them cost over `above` times its target's
    // cheapest round (dearer-process.mjs).
    dearer: { above: 1 + DEARER, replacedRounds: [] },
  };
  undoOnSignal(progress);
  // What a wake-up across the two cores costs, at the start and the end (wake-up.mjs).
  const wakeUp = () => measureWakeUp({ cores: [SERVER_CORE, HARNESS_CORE] });
  if (pinned) report.meta.wakeUp = { start: await wakeUp(), end: null };
  const dir = mkdtempSync(path.join(tmpdir(), 'petstore-bench-'));
  const removeDir = undoLater(() => rmSync(dir, { recursive: true, force: true }));
  // The traced target's spans go to a sink in this process (started after pinning, so on the
  // harness core); a soak runs only our server, untraced.
  const sink =
    options.soak === 0 && options.targets.includes('ours-traced')
      ? await startOtlpSink()
      : undefined;
  // One gate for the whole run: its fastest probe is the run's (steady-core.mjs).
  const gate = createCoreGate({
    pinned,
    seconds: options.steady,
    gateDuring: report.meta.gateDuring,
  });
  const context = { options: { ...options, otlpSink: sink?.url }, pinned, dir, gate };
  const measurements = [];
  try {
    for (const database of options.databases) {
      if (options.soak > 0) {
        report.soaks.push(await soakOn(database, context));
      } else {
        const { startup, results, replaced } = await benchOn(database, context);
        report.startup.push(...startup);
        measurements.push(...results);
        report.dearer.replacedRounds.push(...replaced);
      }
    }
  } finally {
    await sink?.stop();
    await removeDir();
  }
  if (sink) report.meta.otlpSink = { ...sink.received };
  report.meta.loadAverage.end = loadAverage();
  if (pinned) report.meta.wakeUp.end = await wakeUp();
  report.rows = summarise(measurements);
  report.goal = goal(report.rows);
  report.scale = scale(report.rows);
  report.machine =
    report.rows.length > 0 ? { ...machineSummary(report.rows), moves: gate.moves } : null;
  console.log(formatReport(report));
  if (options.json) writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
  const bad = report.rows.filter((row) => row.unexpected + row.errors > 0);
  const badSoak = report.soaks.filter((s) => s.unexpected + s.errors > 0);
  if (bad.length + badSoak.length > 0) {
    throw new BenchError(
      'some requests failed or got an unexpected status: not a clean measurement',
    );
  }
  return report;
}

/** Start-up times, then the scenarios of each data set in alternating rounds. */
async function benchOn(database, context) {
  const { options } = context;
  const stores = [];
  const storeFor = async (pets) => {
    const found = stores.find((store) => store.pets === pets);
    if (found) return found;
    const openedAt = performance.now();
    const store = await openStore(database, { pets, dir: context.dir, name: `pets-${pets}` });
    progress(
      `[${database}] ${store.name}: ${pets} pets and a key in ${Math.round(performance.now() - openedAt)} ms`,
    );
    stores.push({ ...store, pets });
    return stores.at(-1);
  };
  try {
    const startup = [];
    const normal = await storeFor(NORMAL_PETS);
    for (const target of options.targets) {
      const runsMs = [];
      let readiness;
      for (let i = 0; i < options.starts; i += 1) {
        const started = await start(target, { store: normal, pets: NORMAL_PETS }, context);
        runsMs.push(started.startupMs);
        readiness = started.readiness;
        await started.stop();
      }
      startup.push({ database, target, readiness, runsMs, medianMs: median(runsMs) });
      progress(`[${database}] start-up ${target}: ${runsMs.map(Math.round).join(', ')} ms`);
    }
    const results = [];
    const replaced = [];
    for (const pets of [NORMAL_PETS, SCALE_PETS]) {
      const selected = options.scenarios.filter((scenario) => scenario.pets === pets);
      if (selected.length === 0) continue;
      const store = await storeFor(pets);
      // Beside our server at 1,000,000 pets, our server at 1,000 (a store of its own: creates
      // have added to the first one), so their ratio comes from the same rounds.
      const withReference = pets === SCALE_PETS && options.targets.includes('ours');
      const reference = withReference ? await referenceStore(database, context) : undefined;
      if (reference) stores.push(reference);
      const alternated = await alternate(database, selected, store, reference, context);
      results.push(...alternated.results);
      replaced.push(...alternated.replaced);
    }
    return { startup, results, replaced };
  } finally {
    for (const store of stores) await store.drop();
  }
}

/**
 * Round after round: a fresh process of every target (and the reference, our server on
 * `reference`, right after ours), checked and warmed, then per scenario each target in turn.
 * New processes each round, so a process that stays dearer moves one round, not the run; a
 * round with a dearer process is measured again (dearer-process.mjs). Each round's servers run
 * on fresh copies of the seeded stores, as the baselines start from their seed in each new
 * process: the pets and idempotency keys a round's creates add do not reach the next round.
 * Resolves to the windows kept and the rounds replaced.
 */
async function alternate(database, scenarios, store, reference, context) {
  const { options } = context;
  await context.gate.calibrate();
  const results = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    results.push(...(await oneRound(database, round, scenarios, store, reference, context)));
  }
  const { windows, replaced } = await replaceDearerRounds(results, {
    measureRound: (round) => oneRound(database, round, scenarios, store, reference, context),
    maxRepeats: options.rounds,
    onRepeat: ({ target, round, factor }) =>
      progress(
        `[${database}] round ${round}: ${target}'s process cost ${factor.toFixed(2)}× ` +
          'its cheapest round; measuring the round again with new processes',
      ),
  });
  return { results: windows, replaced: replaced.map((repeat) => ({ database, ...repeat })) };
}

/**
 * One round's fresh copies of the stores and fresh processes, checked and warmed, then every
 * scenario on each target in turn.
 */
async function oneRound(database, round, scenarios, seeded, seededReference, context) {
  const { options } = context;
  const copies = [];
  const running = [];
  const results = [];
  try {
    const copiedAt = performance.now();
    for (const original of [seeded, seededReference].filter(Boolean)) {
      copies.push(await copyStore(database, original, { dir: context.dir, name: copyName() }));
    }
    const [store, reference] = copies;
    progress(
      `[${database}] round ${round}: fresh copies of the seeded stores ` +
        `(${copies.map((copy) => path.basename(copy.name)).join(', ')}) ` +
        `in ${Math.round(performance.now() - copiedAt)} ms`,
    );
    for (const target of options.targets) {
      running.push(await start(target, { store, pets: store.pets }, context));
      if (target === 'ours' && reference) {
        running.push(await start(REFERENCE, { store: reference, pets: reference.pets }, context));
      }
    }
    context.gate.follow(running.map((target) => target.pid));
    await verify(running, scenarios);
    if (options.processWarmUp > 0) {
      for (const target of running) {
        const requests = await warmProcess(target, scenarios[0], options);
        progress(
          `[${database}] round ${round}: ${target.name} (pid ${target.pid}) warmed for ` +
            `${options.processWarmUp} s with ${scenarios[0].name}: ${requests} requests`,
        );
      }
    }
    for (const scenario of scenarios) {
      for (const target of running) {
        const result = await measure({
          target,
          scenario: scenarioFor(scenario, target.name),
          apiKey: target.apiKey,
          ...options,
          gate: context.gate,
        });
        results.push({
          database,
          scenario: scenario.name,
          target: target.name,
          round,
          pid: target.pid,
          ...result,
        });
        progress(
          `[${database}] ${scenario.name} round ${round}/${options.rounds} ${target.name}: ` +
            `${Math.round(result.reqPerSec)} req/s, ${Math.round(result.cpuPerRequestUs)} µs CPU/req ` +
            `(${Math.round(result.cpuPerRequestP10Us)} in the cheapest half-seconds), ` +
            `p99 ${result.p99Ms} ms, probe ${result.machineUs.before.toFixed(2)}/${result.machineUs.after.toFixed(2)} µs` +
            (typeof result.machineUs.during === 'number'
              ? ` (${result.machineUs.during.toFixed(2)} during` +
                (typeof result.memoryNs === 'number'
                  ? `, memory ${result.memoryNs.toFixed(1)} ns per load)`
                  : ')')
              : '') +
            (result.attempts > 1 || result.waitedSeconds >= 1
              ? `, attempt ${result.attempts} after ${Math.round(result.waitedSeconds)} s waiting for the fast core`
              : '') +
            (result.steady || options.steady === 0
              ? ''
              : ' (kept off the fast core: budget spent)'),
        );
      }
    }
    return results;
  } finally {
    for (const target of running) await target.stop();
    await context.gate.release();
    for (const copy of copies) await copy.drop();
  }
}

let copiesMade = 0;

/** A name no other round's copy has: a round measured again copies again. */
function copyName() {
  copiesMade += 1;
  return `round-copy-${copiesMade}`;
}

/**
 * Unmeasured load on a fresh process before its first window (`--process-warm-up`, 10 s by
 * default): its heap grows toward its working size over its first seconds of load. In 91 fresh
 * processes (26 November, Node.js 24.21.0, list 20, fast probes), load seconds 2–6 cost 9 %
 * (ours) and 7 % (the naive stack) more per request than seconds 6–10, V8's helper threads
 * 0.30 and 0.19 s against 0.07 and 0.04 s per 4 s. An unexpected answer fails the run at once
 * (a window's fails it at the end, after the report); resolves to the requests answered.
 */
async function warmProcess(target, scenario, { connections, processWarmUp }) {
  const asked = scenarioFor(scenario, target.name);
  const requests = [requestFor(asked, target.apiKey)];
  const result = await load({ port: target.port, requests, connections, seconds: processWarmUp });
  const failed =
    unexpectedAnswers(result, expectedStatuses(scenario, target.name)) +
    result.errors +
    result.timeouts;
  if (failed > 0) {
    throw new BenchError(
      `${target.name} failed ${failed} requests of ${scenario.title} while warming its process`,
    );
  }
  return result.requests.total;
}

/** The 1,000-pet store of the scale scenarios' reference. */
async function referenceStore(database, context) {
  const openedAt = performance.now();
  const name = `pets-${NORMAL_PETS}-reference`;
  const store = await openStore(database, { pets: NORMAL_PETS, dir: context.dir, name });
  progress(
    `[${database}] ${store.name}: ${NORMAL_PETS} pets and a key in ${Math.round(performance.now() - openedAt)} ms (reference)`,
  );
  return { ...store, pets: NORMAL_PETS };
}

async function soakOn(database, context) {
  const { options } = context;
  const store = await openStore(database, { pets: NORMAL_PETS, dir: context.dir, name: 'soak' });
  try {
    const target = await start(
      'ours',
      { store, pets: NORMAL_PETS, metricsToken: SOAK_METRICS_TOKEN },
      context,
    );
    try {
      progress(`[${database}] soak: ${options.soak} s`);
      const result = await soak({
        target,
        apiKey: store.apiKey,
        ...options,
        seconds: options.soak,
      });
      return { database, ...result };
    } finally {
      await target.stop();
    }
  } finally {
    await store.drop();
  }
}

let launches = 0;

async function start(name, data, { options, pinned, dir }) {
  const launch = targetFor(name).launch({ ...data, ...options });
  launches += 1;
  const logFile = path.join(dir, `${launches}-${name}.log`);
  const started = await startProcess({ name, ...launch, logFile, pinned });
  return { ...started, readiness: launch.readiness, apiKey: data.store.apiKey, pets: data.pets };
}

function loadAverage() {
  return loadavg().map((value) => Number(value.toFixed(2)));
}

function progress(line) {
  process.stderr.write(`${line}\n`);
}

async function commandExists(name) {
  return run('sh', ['-c', `command -v ${name}`]).then(
    () => true,
    () => false,
  );
}
