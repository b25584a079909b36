// Starting and stopping the processes under test: each pinned to the server core, its stdout
// and stderr written to a file, and timed from spawn to ready.
import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { undoLater } from './cleanup.mjs';
import { BenchError } from './errors.mjs';

/** The core the server under test gets; the harness and autocannon stay on the other one. */
export const SERVER_CORE = 0;
export const HARNESS_CORE = 1;

const READY_TIMEOUT_MS = 60_000;
/** How often readiness is checked: the resolution of the start-up figure. */
const POLL_MS = 5;

/**
 * Spawns `node …args` (under `taskset` when `pinned`, or under the command `under`, e.g.
 * valgrind and its options) with PORT set to a free loopback port and waits until it is ready,
 * for up to `readyWithinMs` (default 60 s): `readiness: 'log'` waits for a `"msg":"listening"`
 * line in its output (our server logs it once migrated and warmed up), `'healthz'` for `GET
 * /healthz` 200. Its stdout and stderr go to `logFile`; with `stdout: 'pipe'`, its stdout is a
 * pipe (a UNIX socket pair, as Node's `spawn` makes it) that this process reads and copies to
 * `logFile`, as a log collector would. Resolves to `{ port, pid, startupMs, stop() }`.
 */
export async function startProcess({
  name,
  args,
  env,
  cwd,
  logFile,
  readiness,
  pinned,
  stdout,
  under = [],
  readyWithinMs = READY_TIMEOUT_MS,
}) {
  const port = await freePort();
  const out = openSync(logFile, 'w');
  const node = [...under, process.execPath, ...args];
  const command = pinned ? ['taskset', '-c', String(SERVER_CORE), ...node] : node;
  const spawnedAt = performance.now();
  const piped = stdout === 'pipe';
  const child = spawn(command[0], command.slice(1), {
    cwd,
    stdio: ['ignore', piped ? 'pipe' : out, out],
    env: { PATH: process.env.PATH, PORT: String(port), ...env },
  });
  if (piped) {
    // The same open file as the child's stderr (its offset shared): lines land one after another.
    child.stdout.pipe(createWriteStream('', { fd: out }));
  } else {
    closeSync(out);
  }
  let exit;
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve((exit = { code, signal }))),
  );
  const stop = undoLater(async () => {
    if (exit) return;
    child.kill('SIGTERM'); // our server finishes in-flight requests, then closes its store
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(force);
  });
  const isReady = readiness === 'log' ? logLineSeen(logFile, '"msg":"listening"') : healthy(port);
  for (;;) {
    if (exit) {
      await stop(); // nothing to stop: unregisters it
      throw new BenchError(
        `${name} exited during start-up (${JSON.stringify(exit)}):\n${readFileSync(logFile, 'utf8')}`,
      );
    }
    if (await isReady()) break;
    if (performance.now() - spawnedAt > readyWithinMs) {
      await stop();
      throw new BenchError(`${name} was not ready within ${readyWithinMs / 1000} s`);
    }
    await delay(POLL_MS);
  }
  return { name, port, pid: child.pid, startupMs: performance.now() - spawnedAt, stop };
}

/** During start-up the output is a few lines: reading it whole each poll costs nothing. */
function logLineSeen(file, text) {
  return async () => readFileSync(file, 'utf8').includes(text);
}

function healthy(port) {
  return () =>
    fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
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
