import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { Clock } from '../../src/clock.js';
import type { Subject } from '../../src/domain.js';
import { createTestClock, type TestClock } from '../../src/testing/index.js';

export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A test clock 30 s into a UTC day (the one test clock: `createTestClock`, in milliseconds). */
export function rateLimitClock(): TestClock {
  return createTestClock(new Date('2030-06-01T00:00:30.000Z'));
}

/** Unix seconds of the start of the clock's next minute. */
export function nextMinute(clock: Clock): number {
  return (Math.floor(clock.now() / 60_000) + 1) * 60;
}

/** Unix seconds of the clock's next UTC midnight. */
export function nextDay(clock: Clock): number {
  return (Math.floor(clock.now() / 86_400_000) + 1) * 86_400;
}

/**
 * A window's state as a decision reports it at the clock's time: its limit, what remains, when
 * it resets (Unix seconds), and the whole seconds until then (the IETF field's `t`).
 */
export function windowAt(clock: Clock, limit: number, remaining: number, resetSeconds: number) {
  return {
    limit,
    remaining,
    resetSeconds,
    secondsToReset: resetSeconds - Math.floor(clock.now() / 1000),
  };
}

/** The subject of API key `id`. */
export const keySubject = (keyId: number): Subject => ({ kind: 'key', keyId });
/** The subject of a caller without a valid key at `address`. */
export const addressSubject = (address: string): Subject => ({ kind: 'address', address });

/** A key prefix no other test (or engineer) uses. */
export function uniquePrefix(): string {
  return `test:rl:${randomUUID()}`;
}

/** Deletes every Redis key under `prefix` (the day counters would otherwise linger a day). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/** A real pino logger whose lines a test can read. */
export function capturedLogger() {
  const lines: { level: number; msg: string }[] = [];
  const listeners = new Set<() => void>();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line) lines.push(JSON.parse(line) as { level: number; msg: string });
      }
      for (const listener of listeners) listener();
      done();
    },
  });
  const logger = pino({ level: 'info' }, stream);
  /** Resolves once a logged message matches `pattern`. */
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (lines.some((line) => pattern.test(line.msg))) {
          listeners.delete(check);
          resolve();
        }
      };
      listeners.add(check);
      check();
    });
  return { logger, lines, waitFor };
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A throw-away redis-server of our own, so a test can take it away and bring it back. */
export class OwnRedis {
  #child: ChildProcess | undefined;
  readonly port: number;
  constructor(port: number) {
    this.port = port;
  }
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    this.#child = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
      child.stdout?.on('data', (data: Buffer) => {
        output += data.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
    });
  }
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void {
    this.#child?.kill('SIGSTOP');
  }
  resume(): void {
    this.#child?.kill('SIGCONT');
  }
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null) return;
    this.#child = undefined;
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
}
