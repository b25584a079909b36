// `npm run dev`: the live edit loop. Watches the description (openapi/) and the server and
// client sources; on a change it re-lints (problems shown here), re-bundles, regenerates the
// types, re-renders the docs, type-checks, and restarts the server, which runs from its
// TypeScript source through tsx (no build step).
//
//   npm run dev                   # server on http://127.0.0.1:8080 (PORT, DATABASE_URL… apply)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { root } from './generate.mjs';
import { rebuild } from './dev/pipeline.mjs';
import { watchFolders } from './dev/watch.mjs';

const descriptionDir = path.join(root, 'openapi');
const codeDirs = ['packages/server/src', 'packages/client/src'].map((d) => path.join(root, d));
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

const say = (text) => console.log(`[dev ${new Date().toISOString().slice(11, 19)}] ${text}`);

/** @type {import('node:child_process').ChildProcess | undefined} */
let server;

/** Stops the running server (SIGTERM: it finishes in-flight requests) and waits for it. */
async function stopServer() {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(force);
}

async function restartServer() {
  await stopServer();
  say('starting the server');
  server = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')],
    {
      cwd: root,
      stdio: 'inherit',
      env: { LOG_LEVEL: 'info', ...process.env },
    },
  );
}

/** `tsc --build`: prints type errors (e.g. a handler that no longer matches the new types). */
function typecheck() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '--build', '--pretty'], {
      cwd: root,
      stdio: 'inherit',
    });
    child.on('close', (code) => {
      say(code === 0 ? 'types check' : 'type errors above (the server runs anyway)');
      resolve(code === 0);
    });
  });
}

/** Runs the contract pipeline; true when every artefact is fresh. */
async function deriveFromDescription() {
  const started = performance.now();
  const result = await rebuild();
  if (!result.ok) {
    console.error(result.output);
    say(`${result.failedStage} failed: artefacts left as they were; fix and save again`);
    return false;
  }
  const stages = Object.entries(result.timings)
    .map(([name, ms]) => `${name} ${ms} ms`)
    .join(', ');
  say(`lint clean; bundle, types and docs regenerated (${stages}; ${elapsed(started)})`);
  return true;
}

const elapsed = (started) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Serialises rebuilds: a change during a rebuild queues one more run, never a parallel one. */
let running = Promise.resolve();
let queued = { description: false, code: false };
function schedule(kind) {
  const wasIdle = !queued.description && !queued.code;
  queued[kind] = true;
  if (!wasIdle) return;
  running = running.then(async () => {
    const { description } = queued;
    queued = { description: false, code: false };
    if (description && !(await deriveFromDescription())) return;
    await restartServer();
    await typecheck();
  });
}

say('deriving every artefact from openapi/openapi.yaml');
const first = await deriveFromDescription();
if (!first && !existsSync(path.join(root, 'packages/types/openapi/openapi.json'))) {
  say('no bundle to serve yet: fix the description; the server starts once it lints clean');
} else {
  // The server imports @petstore/types' build output: build once before the first start.
  await typecheck();
  await restartServer();
}

const stop = watchFolders([descriptionDir, ...codeDirs], (files) => {
  const description = files.some((f) => f.startsWith(descriptionDir));
  say(`changed: ${files.map((f) => path.relative(root, f)).join(', ')}`);
  schedule(description ? 'description' : 'code');
});
say('watching openapi/, packages/server/src/, packages/client/src/ (Ctrl-C to stop)');

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    stop();
    await stopServer();
    process.exit(0);
  });
}
