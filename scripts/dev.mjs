// `npm run dev`: the live edit loop. Watches the description (openapi/) and the server and
// client sources; on a change of the description it re-lints (problems shown here),
// re-bundles, regenerates the types and re-renders the docs (scripts/dev/pipeline.mjs: the
// functions `npm run generate` and `npm run docs` run), then restarts the server, which runs
// from its TypeScript source through tsx (no build step), and type-checks. A code change
// restarts the server and type-checks only.
//
//   npm run dev                        # server on http://127.0.0.1:8080 (PORT, DATABASE_URL… apply)
//   node scripts/dev.mjs --root DIR    # the same loop on another checkout (tests: a temporary copy)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isMain, parseCommandLine, runMain, UsageError } from './cli.mjs';
import { rebuild } from './dev/pipeline.mjs';
import { watchFolders } from './dev/watch.mjs';
import { root as ownRoot } from './generate.mjs';

export const usage = `
Usage: node scripts/dev.mjs [--root DIR]     (npm run dev)

Derives every artefact from openapi/openapi.yaml, starts the server from source, then
watches openapi/, packages/server/src/ and packages/client/src/: a description change is
re-linted, re-bundled, its types regenerated and its docs re-rendered, then the server
restarts and tsc --build runs; a code change restarts the server and type-checks. The
server's environment (PORT, DATABASE_URL, ...) applies.

  --root DIR  the project checkout to work on (default: the one this script is in); it
              needs its own node_modules/@petstore links to its packages
  -h, --help  this text
`;

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const say = (text) => console.log(`[dev ${new Date().toISOString().slice(11, 19)}] ${text}`);
const elapsed = (started) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Sends SIGTERM to `child` (SIGKILL after 5 s) and waits until it has exited. */
async function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(force);
}

/** The paths of the project checkout at `root` that the loop reads, writes and watches. */
function projectAt(root) {
  return {
    root,
    source: path.join(root, 'openapi/openapi.yaml'),
    descriptionDir: path.join(root, 'openapi'),
    out: path.join(root, 'packages/types'),
    docsFile: path.join(root, 'packages/types/docs/index.html'),
    serverMain: path.join(root, 'packages/server/src/main.ts'),
    codeDirs: ['packages/server/src', 'packages/client/src'].map((d) => path.join(root, d)),
  };
}

/**
 * Derives everything once, starts the server and watches. Resolves once watching; stops
 * (server included) on SIGINT, SIGTERM or SIGHUP (its terminal has closed), from the start.
 *
 * @param {ReturnType<typeof projectAt>} project
 */
async function startDevLoop(project) {
  const { root } = project;
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let server;
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let checking;
  // Should this loop end some other way (an error, during the first build too), its server, in
  // a process group of its own, would otherwise be left running.
  process.once('exit', () => server?.kill('SIGTERM'));
  /** @type {ReturnType<typeof watchFolders> | undefined} */
  let watcher;
  let stopping = false;
  /** @type {Set<Promise<void>>} Servers being stopped, each until it has exited. */
  const serverStops = new Set();
  // From the start: while the handlers waited for watching to begin, a signal meanwhile (the
  // first build takes seconds) ended the loop by Node's default, with no exit event, so a server
  // already started, in its own group, was left running. SIGHUP too: the terminal has closed.
  // Handled once: a second signal while stopping (Ctrl-C pressed again) changes nothing, where
  // Node's default would end the loop before its server has stopped.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      await watcher?.close();
      await stopChild(checking);
      // The running server and any a restart is still stopping (that server is no longer
      // `server`): without waiting for the latter, the loop exited while it still ran.
      await Promise.all([stopServer(), ...serverStops]);
      process.exit(0);
    });
  }

  /** Stops the running server (SIGTERM: it finishes in-flight requests) and waits for it. */
  async function stopServer() {
    const child = server;
    server = undefined;
    const stop = stopChild(child);
    serverStops.add(stop);
    await stop;
    serverStops.delete(stop);
  }

  async function restartServer() {
    await stopServer();
    if (stopping) return;
    server = spawn(process.execPath, ['--import', 'tsx', project.serverMain], {
      cwd: root,
      stdio: 'inherit',
      // A process group of its own: what a terminal sends its foreground group (Ctrl-C's
      // SIGINT, a hang-up's SIGHUP) reaches this loop alone, which stops the server once.
      // Sent to both, the server began its own graceful stop and the loop's SIGTERM then
      // counted as a second signal, which stops it at once (exit 143).
      detached: true,
      // Readable lines for people (pino-pretty); no load balancer in front of the dev server, so a
      // restart need not drain (stopChild kills after 5 s, and the drain is 10 s by default).
      // Either can be set in the environment, which wins.
      env: { LOG_LEVEL: 'info', LOG_FORMAT: 'pretty', SHUTDOWN_DRAIN_SECONDS: '0', ...process.env },
    });
    say(`starting the server (pid ${server.pid})`);
  }

  /**
   * Starts `tsc --build`, which prints type errors (e.g. a handler that no longer matches the
   * new types). It runs beside the loop: the next change need not wait for it, and a check
   * still running when the next one starts is stale, so it is stopped.
   */
  async function typecheck() {
    await stopChild(checking);
    if (stopping) return;
    const child = spawn(process.execPath, [tsc, '--build', '--pretty'], {
      cwd: root,
      stdio: 'inherit',
    });
    checking = child;
    child.on('close', (code, signal) => {
      if (checking === child) checking = undefined;
      if (signal === null) {
        say(code === 0 ? 'types check' : 'type errors above (the server runs anyway)');
      }
    });
  }

  /** Runs the contract pipeline; true when every artefact is fresh. */
  async function deriveFromDescription() {
    const started = performance.now();
    const result = await rebuild(project);
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

  /** Serialises rebuilds: a change during a rebuild queues one more run, never a parallel one. */
  let running = Promise.resolve();
  let queued = { description: false, code: false };
  function schedule(kind) {
    const wasIdle = !queued.description && !queued.code;
    queued[kind] = true;
    if (!wasIdle) return;
    running = running
      .then(async () => {
        const { description, code } = queued;
        queued = { description: false, code: false };
        const derived = description && (await deriveFromDescription());
        if (!derived && !code) return; // lint problems: the server keeps the last good contract
        await restartServer();
        void typecheck();
      })
      .catch((error) => say(`rebuild failed: ${error?.stack ?? error}; save again to retry`));
  }

  say(`deriving every artefact from ${path.relative(process.cwd(), project.source)}`);
  const first = await deriveFromDescription();
  if (!first && !existsSync(path.join(project.out, 'openapi/openapi.json'))) {
    say('no bundle to serve yet: fix the description; the server starts once it lints clean');
  } else {
    await restartServer();
    void typecheck();
  }

  const inDescription = (file) => file.startsWith(project.descriptionDir + path.sep);
  watcher = watchFolders([project.descriptionDir, ...project.codeDirs], (files) => {
    say(`changed: ${files.map((f) => path.relative(root, f)).join(', ')}`);
    if (files.some(inDescription)) schedule('description');
    if (!files.every(inDescription)) schedule('code');
  });
  await watcher.ready;
  say('watching openapi/, packages/server/src/, packages/client/src/ (Ctrl-C to stop)');
}

/** The command line: `npm run dev` runs this; it keeps running until Ctrl-C. */
export async function main(args) {
  const cli = parseCommandLine(args, { usage, options: { root: { type: 'string' } } });
  if (!cli) return 0;
  const project = projectAt(path.resolve(cli.values.root ?? ownRoot));
  if (!existsSync(project.source)) {
    throw new UsageError(`No openapi/openapi.yaml in ${project.root}`);
  }
  await startDevLoop(project);
  return 0;
}

if (isMain(import.meta.url)) await runMain(main);
