#!/usr/bin/env node
// `npm run bench`: builds (the npm script), then measures our built server beside three
// baselines in alternating rounds. Method and results: docs/benchmarks.md. Not a test.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BenchError } from './bench/errors.mjs';
import { runBench } from './bench/run.mjs';
import { AGAINST, scenarioNames, scenarios } from './bench/scenarios.mjs';
import { STEADY_SECONDS } from './bench/steady-core.mjs';
import { targetNames } from './bench/targets.mjs';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** What --targets chooses from; the other build is named by --against instead. */
const choosable = targetNames.filter((name) => name !== AGAINST);

const help = `usage: npm run bench -- [options]

  --database sqlite|postgres|both  store of our server (default sqlite; postgres: a scratch
                                   database next to TEST_DATABASE_URL, dropped after)
  --duration S        measured seconds per target, scenario and round (default 30; at 10,
                      single rounds of creates spread up to 27 % over three runs here)
  --warm-up S         unmeasured seconds before each measured run (default 3; 0: none)
  --process-warm-up S unmeasured seconds of load on each fresh process before its first
                      measured run (default 10; 0: none)
  --rounds N          alternating rounds; the report shows medians (default 3)
  --connections N     autocannon connections (default 32)
  --scenarios A,B     a subset of: ${scenarioNames.join(', ')}
  --targets A,B       a subset of: ${choosable.join(', ')} (default all)
  --against PATH      also measure another build of our server, as target "against": a
                      checkout (its packages/server/dist/main.js, built) or that main.js;
                      "ours ÷ against" is what the changes between them bought
  --starts N          start-ups timed per target (default 3)
  --steady S          seconds per window for waiting for the fast core and re-running a
                      window the core slowed during (default 60; 0: measure at once)
  --soak S            instead of the comparison: S seconds of mixed load on our server,
                      sampling its RSS (e.g. 300)
  --pool-size N       DATABASE_POOL_SIZE for our server
  --node-options S    NODE_OPTIONS for our server, e.g. "--max-semi-space-size=16"
  --log-level L       our server's LOG_LEVEL: ${logLevels.join(', ')} (default info)
  --log-to file|pipe  where our server's log lines go: a file (default), or a pipe the
                      harness reads and copies to that file, as a collector would (journald,
                      a container runtime); Node makes it a UNIX socket pair
  --json FILE         also write the results as JSON
  --help              this text`;

let values;
try {
  ({ values } = parseArgs({
    options: {
      database: { type: 'string', default: 'sqlite' },
      duration: { type: 'string', default: '30' },
      'warm-up': { type: 'string', default: '3' },
      'process-warm-up': { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '32' },
      scenarios: { type: 'string', default: scenarioNames.join(',') },
      targets: { type: 'string', default: choosable.join(',') },
      against: { type: 'string' },
      starts: { type: 'string', default: '3' },
      steady: { type: 'string', default: String(STEADY_SECONDS) },
      soak: { type: 'string', default: '0' },
      'pool-size': { type: 'string' },
      'node-options': { type: 'string' },
      'log-level': { type: 'string', default: 'info' },
      'log-to': { type: 'string', default: 'file' },
      json: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  usage(error.message);
}
if (values.help) {
  console.log(help);
  process.exit(0);
}

const database = oneOf('database', values.database, ['sqlite', 'postgres', 'both']);
const chosen = subset('targets', values.targets, choosable);
const options = {
  databases: database === 'both' ? ['sqlite', 'postgres'] : [database],
  duration: whole('duration', values.duration, 1),
  warmUp: whole('warm-up', values['warm-up'], 0),
  processWarmUp: whole('process-warm-up', values['process-warm-up'], 0),
  rounds: whole('rounds', values.rounds, 1),
  connections: whole('connections', values.connections, 1),
  scenarios: subset('scenarios', values.scenarios, scenarioNames).map((name) =>
    scenarios.find((scenario) => scenario.name === name),
  ),
  // Canonical order: ours first, so each round starts with it and baselines are checked against it.
  targets: targetNames.filter(
    (name) => chosen.includes(name) || (name === AGAINST && values.against !== undefined),
  ),
  against: values.against === undefined ? undefined : builtMain(values.against),
  starts: whole('starts', values.starts, 1),
  steady: whole('steady', values.steady, 0),
  soak: whole('soak', values.soak, 0),
  poolSize:
    values['pool-size'] === undefined ? undefined : whole('pool-size', values['pool-size'], 1),
  nodeOptions: values['node-options'],
  logLevel: oneOf('log-level', values['log-level'], logLevels),
  logTo: oneOf('log-to', values['log-to'], ['file', 'pipe']),
  json: values.json,
};

if (options.soak > 0 && options.against !== undefined) {
  usage('--against is measured beside ours in the comparison; a --soak runs our server alone');
}

try {
  await runBench(options);
} catch (error) {
  console.error(`bench: ${error instanceof BenchError ? error.message : error.stack}`);
  process.exitCode = 1;
}

function whole(name, text, min) {
  if (!/^\d+$/.test(text) || Number(text) < min) {
    usage(`--${name} must be a whole number of at least ${min} (got "${text}")`);
  }
  return Number(text);
}

/** The built main.js of the build `--against` names: a checkout, or the file itself. */
function builtMain(text) {
  const given = path.resolve(text);
  const file =
    existsSync(given) && statSync(given).isDirectory()
      ? path.join(given, 'packages/server/dist/main.js')
      : given;
  if (!existsSync(file)) {
    usage(`--against: no built server at ${file} (run \`npm run build\` in that checkout)`);
  }
  return file;
}

function oneOf(name, text, allowed) {
  if (!allowed.includes(text))
    usage(`--${name} must be one of ${allowed.join(', ')} (got "${text}")`);
  return text;
}

/** Names from a comma list, each known, in the order of `known`. */
function subset(name, text, known) {
  const names = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const unknown = names.filter((item) => !known.includes(item));
  if (names.length === 0 || unknown.length > 0) {
    usage(`--${name} takes a comma list of ${known.join(', ')} (got "${text}")`);
  }
  return known.filter((item) => names.includes(item));
}

function usage(message) {
  console.error(`bench: ${message}\n\n${help}`);
  process.exit(2);
}
