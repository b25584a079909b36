// The project runs on the Node.js it pins (.node-version), brought by `npm ci` itself: the pin
// agrees with itself, every test runs on it, the native addon is the one compiled for it, and
// the server that `npm start` runs answers on it even when the machine's own Node.js comes first
// on PATH.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readlink, realpath, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtAddon, pinnedRuntime } from '../runtime/build-native.mjs';
import { checkPin, readPin, root } from '../runtime/pin.mjs';

const require = createRequire(import.meta.url);

describe('the pinned runtime', () => {
  it('is stated the same way everywhere (.node-version, .nvmrc, package.json)', async () => {
    expect(await checkPin()).toEqual([]);
  });

  it('is what the tests run on', async () => {
    expect(process.versions.node).toBe(await readPin());
    expect(await realpath(process.execPath)).toBe(await realpath(pinnedRuntime().node));
  });

  it('loads the better-sqlite3 addon compiled from source for it, not a prebuilt one', () => {
    const Database = require(require.resolve('better-sqlite3', { paths: [root] }));
    new Database(':memory:').close();
    const loaded = process.report.getReport().sharedObjects;
    expect(loaded).toContain(builtAddon);
    expect(loaded.filter((file) => file.includes(`${path.sep}prebuilds${path.sep}`))).toEqual([]);
  });
});

describe("`npm start`'s server with the machine's own Node.js first on PATH", () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'petstore-runtime-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('answers from a process running the pinned Node.js', { timeout: 180_000 }, async () => {
    // PATH as a shell on this machine has it: no node_modules/.bin, so `npm` (and the `node`
    // that runs npm) are the machine's own.
    const PATH = process.env.PATH.split(path.delimiter)
      .filter((entry) => !entry.split(path.sep).includes('node_modules'))
      .join(path.delimiter);
    // `npm start` is `npm run build && npm run start -w @petstore/server`; the build is another
    // test's business (it races with the other tests' builds), so build the server alone, then
    // start it as `npm start` does.
    await exec('npm', ['exec', '--', 'tsc', '--build', 'packages/server'], PATH);
    const server = spawn('npm', ['run', '--silent', 'start', '-w', '@petstore/server'], {
      cwd: root,
      env: {
        ...process.env,
        PATH,
        PORT: '0',
        DATABASE_URL: `file:${path.join(dir, 'petstore.db')}`,
        LOG_LEVEL: 'info',
        // Stops at once on SIGTERM, so it does not outlive the test.
        SHUTDOWN_DRAIN_SECONDS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    try {
      const url = await listeningUrl(server);
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      // The process that owns the listening socket is the one that logged, npm's child.
      const pid = await socketOwner(new URL(url).port);
      expect(await realpath(await readlink(`/proc/${pid}/exe`))).toBe(
        await realpath(pinnedRuntime().node),
      );
    } finally {
      const running = server.exitCode === null && server.signalCode === null;
      const exited = once(server, 'exit');
      process.kill(-server.pid, 'SIGTERM');
      if (running) await exited;
    }
  });
});

function exec(command, args, PATH) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, PATH },
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`)),
    );
  });
}

function listeningUrl(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((text) => text.includes('"listening"'));
      if (line) resolve(JSON.parse(line).url);
    });
    child.on('close', (code) => reject(new Error(`npm start exited ${code}: ${err}`)));
  });
}

/** The pid of the process listening on TCP `port`, from ss(8). */
function socketOwner(port) {
  return new Promise((resolve, reject) => {
    const ss = spawn('ss', ['-Hltnp', `sport = :${port}`]);
    let out = '';
    ss.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    ss.on('error', reject);
    ss.on('close', () => {
      const pid = /pid=(\d+)/.exec(out)?.[1];
      if (pid) resolve(Number(pid));
      else reject(new Error(`no process listens on ${port}: ${out}`));
    });
  });
}
