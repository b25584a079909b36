import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validator } from '../support/contract.js';
import {
  issueKeyIn,
  listening,
  logged,
  type ServerProcess,
  spawnServer,
} from '../support/server-process.js';

const validPage = validator('/paths/~1pets/get/responses/200/content/application~1json/schema');

let dir: string;
let databaseFile: string;
let key: string;
let server: ServerProcess | undefined;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'petstore-signals-'));
  databaseFile = path.join(dir, 'petstore.db');
  key = await issueKeyIn(`file:${databaseFile}`);
});
afterEach(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited;
  rmSync(dir, { recursive: true, force: true });
});

async function start(drainSeconds: number, timeoutSeconds: number): Promise<URL> {
  server = spawnServer({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `file:${databaseFile}`,
    SHUTDOWN_DRAIN_SECONDS: String(drainSeconds),
    SHUTDOWN_TIMEOUT_SECONDS: String(timeoutSeconds),
  });
  return new URL(await listening(server));
}

const messages = () => (server?.logs ?? []).map((line) => String(line.msg));

describe('the server process on shutdown signals', { timeout: 30_000 }, () => {
  it('on SIGTERM fails /readyz at once while serving the API, then stops accepting, and exits 0', async () => {
    // A drain long enough for the requests below on a busy machine.
    const url = await start(5, 9);
    server!.child.kill('SIGTERM');
    expect(await logged(server!, 'shutting down')).toMatchObject({
      signal: 'SIGTERM',
      drainSeconds: 5,
      timeoutSeconds: 9,
    });

    const readyz = await fetch(new URL('/readyz', url));
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toEqual({ status: 'draining' });
    const page = await fetch(new URL('/v1/pets', url), {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('connection')).toBe('close');
    expect(validPage(await page.json())).toBe(true);

    await logged(server!, 'drained');
    const refused = await fetch(new URL('/healthz', url)).then(
      () => 'answered',
      (error: { cause?: { code?: string } }) => error.cause?.code,
    );
    expect(refused).toBe('ECONNREFUSED');
    expect(await server!.exited).toBe(0);
    const order = ['shutting down', 'drained', 'stopped'].map((start) =>
      messages().findIndex((msg) => msg.startsWith(start)),
    );
    expect(order.every((index, i) => index >= 0 && (i === 0 || index > order[i - 1]!))).toBe(true);
  });

  it('on SIGHUP (the terminal it ran in has closed) shuts down the same way and exits 0', async () => {
    // A drain long enough for the request below on a busy machine.
    const url = await start(3, 7);
    server!.child.kill('SIGHUP');
    expect(await logged(server!, 'shutting down')).toMatchObject({ signal: 'SIGHUP' });
    const readyz = await fetch(new URL('/readyz', url));
    expect(readyz.status).toBe(503);
    // Left to Node's default, SIGHUP ended the process at once: no exit code, no "stopped".
    expect(await server!.exited).toBe(0);
    expect(messages().at(-1)).toBe('stopped');
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)(
    'stops at once on a second signal (%s: exit %i), drain or not',
    async (second, code) => {
      // A drain longer than the test may take: only the second signal can end it in time.
      await start(60, 90);
      server!.child.kill('SIGTERM');
      await logged(server!, 'shutting down');
      server!.child.kill(second);
      expect(await server!.exited).toBe(code);
      expect(messages()).toContain('second signal: stopping at once');
      expect(messages()).not.toContain('stopped');
    },
  );

  it('exits 0 within SHUTDOWN_TIMEOUT_SECONDS, cutting a request that never completes', async () => {
    const url = await start(0, 2);
    // Its headers arrive, its body never does: a request in flight that cannot finish.
    const stuck = httpRequest({
      host: url.hostname,
      port: url.port,
      method: 'POST',
      path: '/v1/pets',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'Content-Length': '100',
        Expect: '100-continue',
      },
    });
    const outcome = new Promise<string>((resolve) => {
      stuck.once('response', (res) => resolve(`answered ${res.statusCode}`));
      stuck.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    stuck.flushHeaders();
    await once(stuck, 'continue');

    server!.child.kill('SIGTERM');
    expect(await server!.exited).toBe(0);
    expect(await outcome).toBe('ECONNRESET');
    expect(
      server!.logs.find((line) => String(line.msg).startsWith('shutdown timeout')),
    ).toMatchObject({
      level: 40,
      connections: 1,
    });
    expect(messages()).toContain('stopped');
  });

  it('exits 0 on SIGTERM when nobody reads its standard output any more', async () => {
    await start(1, 5);
    server!.child.kill('SIGTERM');
    await logged(server!, 'shutting down');
    // The log reader goes (a collector dying, a closed pipe) while the server drains: its next
    // write fails with EPIPE. (The hang this once caused, when the flush at exit is the first
    // write to fail, is reproduced in logger/stdout-writer.test.ts.)
    server!.child.stdout!.destroy();
    const exit = await Promise.race([
      server!.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running 15 s later'), 15_000)),
    ]);
    expect(exit).toBe(0);
    expect(server!.stderr()).toContain(
      'Standard output failed (EPIPE): log lines are dropped from now on.',
    );
  });

  it('exits 0 on SIGTERM when nobody reads its standard output or its standard error', async () => {
    await start(1, 5);
    server!.child.kill('SIGTERM');
    await logged(server!, 'shutting down');
    // One reader for both gone (a collector of `2>&1`; a closed terminal answers EIO): the
    // line that says the logs are dropped cannot be written either, which ended the process.
    server!.child.stdout!.destroy();
    server!.child.stderr!.destroy();
    const exit = await Promise.race([
      server!.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running 15 s later'), 15_000)),
    ]);
    expect(exit).toBe(0);
  });
});
