#!/usr/bin/env node
// Measures the real server's throughput, latency and memory with autocannon.
//
//   npm run bench                                   SQLite, 10 s per scenario, 32 connections
//   npm run bench -- --database postgres            a scratch PostgreSQL database (created, dropped)
//   npm run bench -- --duration 5 --connections 16
//
// It builds nothing: `npm run bench` builds first, then runs this. The server is the built
// `packages/server/dist/main.js`, as `npm start` runs it (NODE_ENV=production, in-memory rate
// limits, JSON logs at info written to a file), on an ephemeral loopback port. With two or more
// cores the server is pinned to core 0 and autocannon to core 1, as DESIGN.md's reference
// numbers were measured. Not a test: CI does not run it; the numbers go in the README.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';

/** A failure with a message meant for the person running the benchmark (no stack trace). */
class BenchError extends Error {}

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'packages/server');
const mainJs = path.join(serverDir, 'dist/main.js');

const { values: options } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    duration: { type: 'string', default: '10' },
    'warm-up': { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    'log-level': { type: 'string', default: 'info' },
    help: { type: 'boolean', default: false },
  },
});
if (options.help) {
  console.log(
    'usage: npm run bench -- [--database sqlite|postgres] [--duration S] [--warm-up S] [--connections N] [--log-level info|warn|…]',
  );
  process.exit(0);
}
const duration = positiveInteger('duration', options.duration);
const warmUp = positiveInteger('warm-up', options['warm-up']);
const connections = positiveInteger('connections', options.connections);
if (!['sqlite', 'postgres'].includes(options.database)) {
  usage(`--database must be sqlite or postgres (got "${options.database}")`);
}
if (!existsSync(mainJs))
  usage(`${path.relative(root, mainJs)} is missing: run \`npm run bench\`, which builds first`);

/**
 * Two calibrations, run on the same core as the server: bare `node:http` answering with the
 * bytes of the real server's page, and Express 5 + express-openapi-validator on our
 * description answering from memory. They tell how fast this machine is right now, so the
 * numbers can be set beside DESIGN.md's reference (~54k and ~6.4k req/s on a free core).
 * CommonJS `-e` sources, run in packages/server so `require` finds its dependencies.
 */
const calibrations = [
  {
    title: 'calibration: bare node:http, same body',
    path: '/',
    readyPath: '/',
    source: `require('node:http')
      .createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(process.env.BODY);
      })
      .listen(Number(process.env.PORT), '127.0.0.1');`,
  },
  {
    title: 'calibration: Express 5 + validator, pets in memory',
    path: '/v1/pets?limit=20',
    readyPath: '/ready',
    source: `const express = require('express');
      const { middleware } = require('express-openapi-validator');
      const pets = JSON.parse(process.env.BODY);
      const app = express();
      app.get('/ready', (req, res) => res.end());
      app.use(middleware({
        apiSpec: require('@petstore/types/openapi.json'),
        validateApiSpec: false,
        validateRequests: true,
        validateResponses: false,
        validateSecurity: { handlers: { bearerAuth: () => true } },
      }));
      app.get('/v1/pets', (req, res) => res.json(pets));
      app.use((error, req, res, next) => res.status(error.status ?? 500).json({ message: error.message }));
      app.listen(Number(process.env.PORT), '127.0.0.1');`,
  },
];

// Read before pinning: afterwards this process sees only its own core.
const cores = availableParallelism();
const pinned = cores >= 2 && (await commandExists('taskset'));
// Other work on the machine skews every number; say how busy it was when the run began.
const loadAtStart = loadavg()[0];
const tempDir = mkdtempSync(path.join(tmpdir(), 'petstore-bench-'));
let database;
let server;
try {
  database = await prepareDatabase(options.database, tempDir);
  const apiKey = await createBenchKey(database.url);
  if (pinned) await run('taskset', ['-cp', '1', String(process.pid)]);
  server = await startServer(database.url, tempDir);
  const origin = `http://127.0.0.1:${server.port}`;
  await seedPets(origin, apiKey, 100);
  const page = await fetch(`${origin}/v1/pets?limit=20`, {
    headers: { Authorization: `Bearer ${apiKey}` },
  }).then((response) => response.text());

  const results = [];
  for (const calibration of calibrations) {
    const baseline = await startProcess({
      name: calibration.title,
      args: ['-e', calibration.source],
      readyPath: calibration.readyPath,
      logFile: path.join(tempDir, 'calibration.log'),
      env: { BODY: page },
    });
    try {
      results.push(
        await measure(baseline, `http://127.0.0.1:${baseline.port}`, apiKey, {
          title: calibration.title,
          method: 'GET',
          path: calibration.path,
        }),
      );
    } finally {
      await baseline.stop();
    }
  }

  const rssBefore = memory(server.child.pid);
  for (const scenario of [
    { title: 'GET /v1/pets?limit=20', method: 'GET', path: '/v1/pets?limit=20' },
    {
      title: 'POST /v1/pets',
      method: 'POST',
      path: '/v1/pets',
      body: JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' }),
    },
  ]) {
    results.push(await measure(server, origin, apiKey, scenario));
  }
  const rssAfter = memory(server.child.pid);

  report({ results, rssBefore, rssAfter });
} catch (error) {
  console.error(`bench: ${error instanceof BenchError ? error.message : error.stack}`);
  process.exitCode = 1;
} finally {
  await server?.stop();
  await database?.drop();
  rmSync(tempDir, { recursive: true, force: true });
}

/** An empty database: a SQLite file in the temp folder, or a scratch PostgreSQL database. */
async function prepareDatabase(kind, dir) {
  if (kind === 'sqlite') {
    return {
      label: 'SQLite (WAL, synchronous=FULL)',
      url: `file:${path.join(dir, 'bench.db')}`,
      drop: async () => {},
    };
  }
  const adminUrl =
    process.env.TEST_DATABASE_URL ?? 'postgres://petstore:petstore@127.0.0.1:5432/petstore_test';
  const name = `petstore_bench_${randomBytes(6).toString('hex')}`;
  await admin(adminUrl, `create database "${name}" template template0`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    label: 'PostgreSQL (pg pool of 10)',
    url: url.toString(),
    drop: () => admin(adminUrl, `drop database if exists "${name}" with (force)`),
  };
}

async function admin(connectionString, sql) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** An enterprise key with limits far above what a run can spend, made by the keys CLI. */
async function createBenchKey(databaseUrl) {
  const { stdout } = await run(
    'npm',
    [
      'run',
      '--silent',
      'keys',
      '--',
      'create',
      '--plan',
      'enterprise',
      '--per-minute',
      '100000000',
      '--per-day',
      '1000000000',
      '--name',
      'bench',
    ],
    { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } },
  );
  const key = stdout.trim().split('\n').at(-1);
  if (!key?.startsWith('psk_')) fail(`the keys CLI printed no key:\n${stdout}`);
  return key;
}

/** Starts the built server on a free loopback port; resolves once /healthz answers 200. */
async function startServer(databaseUrl, dir) {
  return startProcess({
    name: 'server',
    args: [mainJs],
    readyPath: '/healthz',
    logFile: path.join(dir, 'server.log'),
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: options['log-level'],
    },
  });
}

/** Spawns `node args…` (pinned to core 0 when possible) with PORT set; waits for readyPath. */
async function startProcess({ name, args, readyPath, logFile, env }) {
  const port = await freePort();
  const log = openSync(logFile, 'a');
  const command = pinned
    ? ['taskset', '-c', '0', process.execPath, ...args]
    : [process.execPath, ...args];
  const child = spawn(command[0], command.slice(1), {
    cwd: serverDir,
    stdio: ['ignore', log, log],
    env: { PATH: process.env.PATH, PORT: String(port), ...env },
  });
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const early = await Promise.race([exited, delay(100).then(() => undefined)]);
    if (early) {
      fail(
        `the ${name} exited during start-up (${JSON.stringify(early)}):\n${readFileSync(logFile, 'utf8')}`,
      );
    }
    const ok = await fetch(`http://127.0.0.1:${port}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      fail(
        `the ${name} did not answer ${readyPath} within 30 s:\n${readFileSync(logFile, 'utf8')}`,
      );
    }
  }
  return {
    port,
    child,
    async stop() {
      child.kill('SIGTERM'); // the server shuts down gracefully: in-flight requests, then the store
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function seedPets(origin, apiKey, count) {
  for (let i = 0; i < count; i += 1) {
    const response = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `Seed ${i}`, categoryId: i % 5, status: 'available' }),
    });
    if (response.status !== 201)
      fail(`seeding answered ${response.status}: ${await response.text()}`);
  }
}

/** A warm-up run (JIT, caches, pool; not reported), then the measured run and its CPU time. */
async function measure(target, origin, apiKey, scenario) {
  await load(origin, apiKey, scenario, warmUp);
  const cpuBefore = cpuSeconds(target.child.pid);
  const started = performance.now();
  const result = await load(origin, apiKey, scenario, duration);
  const wall = (performance.now() - started) / 1000;
  return { scenario, result, cpu: cpuSeconds(target.child.pid) - cpuBefore, wall };
}

function load(origin, apiKey, scenario, seconds) {
  return autocannon({
    url: `${origin}${scenario.path}`,
    method: scenario.method,
    connections,
    duration: seconds,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(scenario.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(scenario.body ? { body: scenario.body } : {}),
  });
}

/**
 * CPU time the process has used, in seconds (Linux /proc, clock ticks of USER_HZ = 100).
 * Requests per CPU-second hardly depends on what else the machine runs, unlike req/s.
 */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime (fields 14 and 15)
}

/** Resident and peak resident memory of a process, in MiB (Linux /proc). */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

function report({ results, rssBefore, rssAfter }) {
  const mib = (n) => `${n.toFixed(0)} MiB`;
  console.log(
    `\nPet Store benchmark — ${database.label}, in-memory rate limits, NODE_ENV=production, LOG_LEVEL=${options['log-level']}`,
  );
  console.log(
    `node ${process.version}, ${cores} cores${pinned ? ' (server on core 0, autocannon on core 1)' : ''}; ` +
      `${connections} connections, ${warmUp} s warm-up + ${duration} s per scenario; ` +
      `load average ${loadAtStart.toFixed(2)} at start\n`,
  );
  console.log(
    '| Scenario | req/s (mean) | p50 | p99 | server CPU | req per server CPU-second | non-2xx | errors |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const { scenario, result, cpu, wall } of results) {
    const perCpuSecond = cpu > 0 ? Math.round(result.requests.total / cpu) : 'n/a';
    console.log(
      `| ${scenario.title} | ${Math.round(result.requests.average)} | ${result.latency.p50} ms | ` +
        `${result.latency.p99} ms | ${Math.round((cpu / wall) * 100)} % | ${perCpuSecond} | ` +
        `${result.non2xx} | ${result.errors + result.timeouts} |`,
    );
  }
  const [bare, framework, ...scenarios] = results.map(({ scenario, result, cpu }) => ({
    title: scenario.title,
    perCpuSecond: cpu > 0 ? result.requests.total / cpu : NaN,
  }));
  console.log(
    `\nPer server CPU-second: ${percent(framework.perCpuSecond / bare.perCpuSecond)} of bare ` +
      `node:http for Express 5 + validator; ${scenarios
        .map(
          (row) =>
            `${percent(row.perCpuSecond / bare.perCpuSecond)} (${percent(row.perCpuSecond / framework.perCpuSecond)} of Express 5 + validator) for ${row.title}`,
        )
        .join(', ')}.`,
  );
  console.log(
    "DESIGN.md's reference on a free core: bare node:http ~54k req/s, Express 5 + validator ~6.4k " +
      '(12 %), the same on better-sqlite3 ~5k (9 %; 78 % of Express 5 + validator).',
  );
  console.log(
    `Server RSS: ${mib(rssBefore.rss)} after start-up and seeding, ${mib(rssAfter.rss)} after the runs (peak ${mib(rssAfter.peak)}).`,
  );
  if (loadAtStart > 0.5) {
    console.log('The machine was busy when the run began: expect lower, noisier numbers.');
  }
  const failed = results.some(
    ({ result }) => result.non2xx > 0 || result.errors > 0 || result.timeouts > 0,
  );
  if (failed) {
    console.error('Some requests failed: the numbers above are not a clean measurement.');
    process.exitCode = 1;
  }
}

function percent(ratio) {
  return Number.isFinite(ratio) ? `${(ratio * 100).toFixed(1)} %` : 'n/a';
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function commandExists(name) {
  return run('sh', ['-c', `command -v ${name}`]).then(
    () => true,
    () => false,
  );
}

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function positiveInteger(name, text) {
  if (!/^[1-9]\d*$/.test(text)) usage(`--${name} must be a positive whole number (got "${text}")`);
  return Number(text);
}

/** Refuses to start (nothing to clean up yet). */
function usage(message) {
  console.error(`bench: ${message}`);
  process.exit(2);
}

function fail(message) {
  throw new BenchError(message);
}
