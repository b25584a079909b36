import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';

/** A free TCP port on loopback (asked of the kernel, then released for the caller to bind). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** How HAProxy checks each server's `/readyz`. */
export interface HealthCheck {
  /** Between two checks (HAProxy's `inter`, `fastinter` and `downinter`). */
  intervalMs: number;
  /** Failed checks in a row that mark a server down. */
  fall: number;
  /** Passed checks in a row that mark it up again. */
  rise: number;
}

export interface HaproxyOptions {
  /** The backend's servers: a name and a loopback port each (nothing need listen there yet). */
  servers: { name: string; port: number }[];
  check: HealthCheck;
}

export interface Haproxy {
  /** The frontend, `http://127.0.0.1:PORT`. */
  url: string;
  /** The configuration it runs, as written. */
  config: string;
  /** HAProxy's log so far: server state changes, failed checks and failed requests. */
  log(): string;
  /** Each server's state as HAProxy sees it now (`UP`, `DOWN`, `UP 1/2`, `DOWN 1/2`, …). */
  states(): Promise<Record<string, string>>;
  /** Waits until HAProxy sees `server` in `state` (`UP` or `DOWN`). */
  waitFor(server: string, state: 'UP' | 'DOWN'): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The configuration of a load balancer in front of the Pet Store, as docs/operations.md gives it,
 * with the test's check timings: `/readyz` decides whether a server gets requests, and nothing is
 * retried or sent elsewhere once sent (`retries 0`, `retry-on none`, no `redispatch`), so a
 * request a server drops is a failed request for the caller.
 */
export function haproxyConfig(
  { servers, check }: HaproxyOptions,
  ports: { frontend: number; stats: number },
): string {
  const inter = `${check.intervalMs}ms`;
  return [
    'global',
    '  log stderr format raw local0 info',
    '',
    'defaults',
    '  mode http',
    '  log global',
    // Only what went wrong, and every change of a server's state.
    '  option httplog',
    '  option dontlog-normal',
    '  option log-health-checks',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-keep-alive 60s',
    // A server slow to answer a check is busy, not gone: only a failing answer marks it down.
    '  timeout check 5s',
    '  retries 0',
    '  retry-on none',
    '  no option redispatch',
    '',
    'frontend api',
    `  bind 127.0.0.1:${ports.frontend}`,
    '  default_backend petstore',
    '',
    'backend petstore',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /readyz',
    '  http-check expect status 200',
    // Idle connections to a server are closed by HAProxy (half of them each second) well before
    // the server's keep-alive timeout would: the server never closes one under a request.
    `  default-server check inter ${inter} fastinter ${inter} downinter ${inter} ` +
      `fall ${check.fall} rise ${check.rise} pool-purge-delay 1s`,
    ...servers.map(({ name, port }) => `  server ${name} 127.0.0.1:${port}`),
    '',
    'listen stats',
    `  bind 127.0.0.1:${ports.stats}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
}

/** Starts `haproxy` (the apt package) in the foreground on loopback with a generated config. */
export async function startHaproxy(options: HaproxyOptions): Promise<Haproxy> {
  const ports = { frontend: await freePort(), stats: await freePort() };
  const config = haproxyConfig(options, ports);
  const dir = mkdtempSync(path.join(tmpdir(), 'petstore-haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', file], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const states = async (): Promise<Record<string, string>> => {
    const csv = await (await fetch(`http://127.0.0.1:${ports.stats}/stats;csv`)).text();
    const [header = '', ...rows] = csv.trim().split('\n');
    const columns = header.replace(/^# /, '').split(',');
    const name = columns.indexOf('svname');
    const status = columns.indexOf('status');
    return Object.fromEntries(
      rows
        .map((row) => row.split(','))
        .filter((cells) => cells[0] === 'petstore')
        .map((cells) => [cells[name], cells[status]]),
    );
  };
  const haproxy: Haproxy = {
    url: `http://127.0.0.1:${ports.frontend}`,
    config,
    log: () => stderr,
    states,
    async waitFor(server, state) {
      await expect
        .poll(async () => (await states())[server], { timeout: 30_000, interval: 20 })
        .toBe(state);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await expect
      .poll(
        () =>
          states().then(
            () => true,
            () => false,
          ),
        { timeout: 10_000, interval: 20 },
      )
      .toBe(true);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`HAProxy did not start: ${stderr}`, { cause: error });
  }
  return haproxy;
}
