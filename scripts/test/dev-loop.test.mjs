// `npm run dev` end to end: the real dev loop (scripts/dev.mjs) as a child process on a
// temporary copy of the project, its server on a free loopback port with a temporary SQLite
// file. The description is edited the ways people and tools do (in place; replaced by a
// rename, as git checkout, git stash, sed -i and editors' safe-write do) and each change must
// be served at /openapi.json and present in the generated types. Nothing in the repository
// is modified.
import { execFile, spawn } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { root } from '../generate.mjs';
import { copyProject } from './project-copy.mjs';

const deadline = { timeout: 90_000, interval: 100 };

let scratch = '';
let project = '';
let base = '';
/** @type {import('node:child_process').ChildProcess} */
let dev;
let output = '';

/** A TCP port nothing listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

const file = (relative) => path.join(project, relative);
const description = () => readFile(file('openapi/openapi.yaml'), 'utf8');

/** Waits until the dev loop has printed `pattern` after the first `from` characters. */
async function printed(pattern, from) {
  await vi.waitFor(() => expect(output.slice(from)).toMatch(pattern), deadline);
}

/** Waits until the running server serves `summary` for listPets at /openapi.json. */
async function served(summary) {
  await vi.waitFor(async () => {
    const response = await fetch(`${base}/openapi.json`);
    expect(response.status).toBe(200);
    expect((await response.json()).paths['/pets'].get.summary).toBe(summary);
  }, deadline);
}

/** Waits until the generated types in the copy carry `summary`. */
async function generated(summary) {
  await vi.waitFor(async () => {
    expect(await readFile(file('packages/types/src/schema.ts'), 'utf8')).toContain(
      `* ${summary}\n`,
    );
  }, deadline);
}

/** The description with listPets' summary replaced. */
async function withSummary(summary) {
  return (await description()).replace(/(summary: )List animals.*/, `$1${summary}`);
}

/** Replaces the description by a rename, as git, sed -i and safe-writing editors do. */
async function replaceByRename(text) {
  const temporary = file('openapi/.openapi.yaml.tmp-save');
  await writeFile(temporary, text);
  await rename(temporary, file('openapi/openapi.yaml'));
}

/**
 * Starts the dev loop on the copy, its server on a new free port and SQLite file; what it
 * prints is added to `output`.
 */
async function startDev(name, extraEnv = {}) {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    ...extraEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: storeFor(name),
    LOG_LEVEL: 'info',
    NO_COLOR: '1', // pino-pretty's lines without colour codes, whatever the terminal
  };
  delete env.REDIS_URL; // in-memory rate limits
  delete env.LOG_FORMAT; // the dev loop's own default
  dev = spawn(process.execPath, [path.join(root, 'scripts/dev.mjs'), '--root', project], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: afterAll can stop the server with it
  });
  groups.push(-dev.pid);
  dev.stdout?.on('data', (chunk) => (output += chunk));
  dev.stderr?.on('data', (chunk) => (output += chunk));
}

/** The SQLite store of the dev loop `name`. */
const storeFor = (name) => `file:${path.join(scratch, `${name}.db`)}`;

/** The process groups of the dev loops started, for afterAll. */
const groups = [];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-dev-loop-'));
  project = await copyProject(path.join(scratch, 'project'));
  await startDev('dev');
  await printed(/watching openapi\//, 0);
  await served('List animals');
}, 120_000);

afterAll(async () => {
  // The dev loop's process group and each server it started (in groups of their own), even
  // when the loop itself has exited: one that ended without stopping its server left it running.
  const servers = [...output.matchAll(/starting the server \(pid (\d+)\)/g)].map(([, pid]) => -pid);
  for (const group of [...groups, ...servers]) {
    try {
      process.kill(group, 'SIGKILL');
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ESRCH') throw error;
    }
  }
  await rm(scratch, { recursive: true, force: true, maxRetries: 5 });
});

describe('npm run dev', () => {
  it('sees an edit made in place', async () => {
    await writeFile(file('openapi/openapi.yaml'), await withSummary('List animals in place'));
    await served('List animals in place');
    await generated('List animals in place');
  }, 120_000);

  it('sees the description replaced by a rename, again and again, and edits after that', async () => {
    for (const summary of ['List animals renamed once', 'List animals renamed twice']) {
      await replaceByRename(await withSummary(summary));
      await served(summary);
      await generated(summary);
    }
    await writeFile(file('openapi/openapi.yaml'), await withSummary('List animals edited again'));
    await served('List animals edited again');
    await generated('List animals edited again');
  }, 240_000);

  it('keeps the last good contract and every artefact while the description has lint problems', async () => {
    const artefacts = ['openapi/openapi.json', 'openapi/openapi.yaml', 'src/schema.ts'].map((f) =>
      file(`packages/types/${f}`),
    );
    const before = await Promise.all(artefacts.map((f) => stat(f)));
    const from = output.length;
    await replaceByRename(
      (await withSummary('List animals edited again')).replace(
        'summary: Add an animal',
        'summary: add an animal.',
      ),
    );
    await printed(/lint failed: artefacts left as they were/, from);
    expect(output.slice(from)).toContain('rule/summary-sentence-case');
    const after = await Promise.all(artefacts.map((f) => stat(f)));
    expect(after.map((s) => s.mtimeMs)).toEqual(before.map((s) => s.mtimeMs));
    await served('List animals edited again');
  }, 120_000);

  it('restarts the server, and derives nothing, when the server code changes', async () => {
    const schemaBefore = await stat(file('packages/types/src/schema.ts'));
    // pino-pretty's line (`[12:00:00.000] INFO: listening`), not JSON.
    const listening = (text) => text.match(/^\[[\d:.]+\] INFO: listening$/gm)?.length ?? 0;
    const from = output.length;
    const code = file('packages/server/src/routes/public.ts');
    await writeFile(code, `${await readFile(code, 'utf8')}// touched by the dev-loop test\n`);
    await printed(/changed: packages\/server\/src\/routes\/public\.ts/, from);
    await vi.waitFor(() => expect(listening(output.slice(from))).toBe(1), deadline);
    await served('List animals edited again');
    expect(output.slice(from)).not.toMatch(/regenerated|lint failed|"msg":/);
    expect((await stat(file('packages/types/src/schema.ts'))).mtimeMs).toBe(schemaBefore.mtimeMs);
  }, 120_000);

  // SIGINT, SIGTERM and SIGHUP share one handler. A terminal's hang-up sends SIGHUP to its
  // whole foreground process group, as Ctrl-C sends SIGINT: here to the dev loop's group.
  // Without the handler the loop ended at once and left its server running; with the server
  // in the loop's group, the server got the signal too, and the loop's SIGTERM stopped it as a
  // second signal.
  it('stops the server once and exits 0 when its terminal hangs up (SIGHUP to its process group), as on Ctrl-C and SIGTERM', async () => {
    const from = output.length;
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    process.kill(-dev.pid, 'SIGHUP');
    expect(await exited).toBe(0);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    // The server's one signal was the loop's SIGTERM; it finished its graceful stop.
    const stopping = output.slice(from);
    expect(stopping).toMatch(/signal: "SIGTERM"/);
    expect(stopping).not.toMatch(/signal: "SIGHUP"|second signal/);
    expect(stopping).toMatch(/stopped/);
  }, 60_000);

  // The handler is installed first thing. Installed once watching had begun, as before, a
  // signal during the first build (seconds long) ended the loop by Node's default: no exit
  // event, so a server started meanwhile was left running in its own group.
  it('stops and exits 0 on a signal during its first build', async () => {
    const from = output.length;
    await startDev('first-build');
    const exited = new Promise((resolve) =>
      dev.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await printed(/deriving every artefact/, from);
    dev.kill('SIGTERM'); // the loop alone, as a service manager or `kill` would
    expect(await exited).toEqual({ code: 0, signal: null });
    const started = [...output.slice(from).matchAll(/starting the server \(pid (\d+)\)/g)];
    for (const [, pid] of started) expect(() => process.kill(Number(pid), 0)).toThrow();
    expect(output.slice(from)).not.toMatch(/watching openapi\//);
  }, 60_000);

  // A restart stops the old server before it starts the new one. Before, a signal during that
  // stop found no running server and the loop exited at once, the old server still stopping
  // (or, had it not stopped, running with nobody to kill it after 5 s). Here the old server's
  // stop takes two seconds: a create is in flight whose body never comes, which it cuts after
  // SHUTDOWN_TIMEOUT_SECONDS (2, the least allowed).
  it('waits, on a signal during a restart, for the server the restart is stopping', async () => {
    const from = output.length;
    const keys = path.join(root, 'packages/server/src/cli/keys.ts');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', keys, 'create', '--plan', 'free', '--name', 'dev-loop'],
      { cwd: root, env: { ...process.env, DATABASE_URL: storeFor('restart') } },
    );
    const key = stdout.trim().split('\n').at(-1);
    await startDev('restart', { SHUTDOWN_TIMEOUT_SECONDS: '2' });
    await printed(/watching openapi\//, from);
    const [, first] = /starting the server \(pid (\d+)\)/.exec(output.slice(from)) ?? [];
    expect(first).toBeDefined();
    await vi.waitFor(async () => expect((await fetch(`${base}/healthz`)).ok).toBe(true), deadline);
    const stuck = httpRequest(`${base}/v1/pets`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'Content-Length': '100',
        Expect: '100-continue',
      },
    });
    stuck.on('error', () => {}); // cut by the old server's stop
    stuck.flushHeaders();
    await new Promise((resolve) => stuck.once('continue', resolve));
    const exited = new Promise((resolve) =>
      dev.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const changed = output.length;
    await appendFile(file('packages/server/src/routes/public.ts'), '\n');
    await printed(/changed: packages\/server\/src\/routes\/public\.ts/, changed);
    dev.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    // Gone once the loop has exited: the first server, and any the restart started.
    const started = [...output.slice(changed).matchAll(/starting the server \(pid (\d+)\)/g)];
    for (const pid of [first, ...started.map(([, later]) => later)]) {
      expect(() => process.kill(Number(pid), 0)).toThrow();
    }
    expect(output.slice(changed)).toMatch(/shutdown timeout/);
  }, 60_000);
});
