import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { issueApiKey } from '../../src/keys/index.js';
import { createLogger } from '../../src/logger/index.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import type { Storage } from '../../src/storage/index.js';
import { validator } from '../support/contract.js';

/** A raw keep-alive connection: requests are written by hand, answers read as they come. */
interface Connection {
  socket: Socket;
  /** Sends a request and resolves with its whole answer (status, headers, body). */
  request(method: string, target: string, body?: string): Promise<RawAnswer>;
  closed: Promise<void>;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let dir: string;
let running: RunningServer;
let key: string;
/** Creates wait for this gate while it is set: a request held in flight. */
let gate: Promise<void> | undefined;

const validPet = validator('/components/schemas/Pet');
const validPage = validator('/paths/~1pets/get/responses/200/content/application~1json/schema');

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'petstore-shutdown-'));
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: `file:${path.join(dir, 'petstore.db')}`,
  });
  running = await startServer({
    config,
    logger: createLogger('silent'),
    decorateStorage: (storage): Storage => ({
      ...storage,
      pets: {
        ...storage.pets,
        create: async (...args) => {
          await gate;
          return storage.pets.create(...args);
        },
      },
    }),
  });
  key = (await issueApiKey(running.storage.keys, { plan: 'pro', name: 'shutdown' })).raw;
});
afterEach(async () => {
  gate = undefined;
  await running.close({ drainMs: 0, timeoutMs: 0 });
  rmSync(dir, { recursive: true, force: true });
});

async function open(): Promise<Connection> {
  const { hostname, port } = new URL(running.url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) =>
    socket.once('connect', resolve).once('error', reject),
  );
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let buffered = '';
  let waiting: (() => void) | undefined;
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    waiting?.();
  });
  socket.once('close', () => waiting?.());
  const answer = async (): Promise<RawAnswer> => {
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine = '', ...lines] = buffered.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => {
            const colon = line.indexOf(':');
            return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
          }),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (buffered.length >= end + 4 + length) {
          const body = buffered.slice(end + 4, end + 4 + length);
          buffered = buffered.slice(end + 4 + length);
          return { status: Number(statusLine.split(' ')[1]), headers, body };
        }
      }
      if (socket.destroyed) throw new Error(`closed without a whole answer: ${buffered}`);
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  };
  return {
    socket,
    closed,
    request(method, target, body) {
      socket.write(
        `${method} ${target} HTTP/1.1\r\nHost: petstore\r\nAuthorization: Bearer ${key}\r\n` +
          (body === undefined
            ? '\r\n'
            : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
      );
      return answer();
    },
  };
}

/** Resolves with the error code of a new connection to the server (it should be refused). */
function connectionError(): Promise<string> {
  const { hostname, port } = new URL(running.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('graceful shutdown', () => {
  it('while draining, answers /readyz 503 at once and serves everything else, each answer with Connection: close', async () => {
    const before = await open();
    const ready = await before.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.headers.connection).toBe('keep-alive');

    running.startDraining();

    const readyz = await before.request('GET', '/readyz');
    expect(readyz).toMatchObject({ status: 503, headers: { connection: 'close' } });
    expect(JSON.parse(readyz.body)).toEqual({ status: 'draining' });
    // The server ends a connection after an answer that says so, never before it.
    await before.closed;

    // New connections are still accepted and served, and told to close.
    const during = await open();
    const page = await during.request('GET', '/v1/pets?limit=5');
    expect(page).toMatchObject({ status: 200, headers: { connection: 'close' } });
    expect(validPage(JSON.parse(page.body))).toBe(true);
    await during.closed;
    const another = await open();
    const created = await another.request('POST', '/v1/pets', '{"name":"Drained","categoryId":1}');
    expect(created).toMatchObject({ status: 201, headers: { connection: 'close' } });
    expect(validPet(JSON.parse(created.body))).toBe(true);
    const health = await (await open()).request('GET', '/healthz');
    expect(health).toMatchObject({ status: 200, headers: { connection: 'close' } });
  });

  it('after the drain refuses new connections, closes idle ones, and answers every request in flight or just arriving with Connection: close', async () => {
    // Idle: it finished a request and waits for the next.
    const idle = await open();
    expect((await idle.request('GET', '/healthz')).status).toBe(200);
    // Accepted, but no request yet: Node does not count it idle.
    const fresh = await open();
    // In flight: its create waits for the gate.
    let release: () => void = () => {};
    gate = new Promise<void>((resolve) => (release = resolve));
    const busy = await open();
    const inFlight = busy.request('POST', '/v1/pets', '{"name":"In flight","categoryId":2}');

    const closed = running.close({ drainMs: 0, timeoutMs: 30_000 });

    expect(running.server.listening).toBe(false);
    expect(await connectionError()).toBe('ECONNREFUSED');
    await idle.closed;
    const late = await fresh.request('GET', '/v1/pets?limit=1');
    expect(late).toMatchObject({ status: 200, headers: { connection: 'close' } });
    await fresh.closed;

    release();
    const answered = await inFlight;
    expect(answered).toMatchObject({ status: 201, headers: { connection: 'close' } });
    expect(validPet(JSON.parse(answered.body))).toBe(true);
    await busy.closed;
    await closed;
    expect(answered.body).toContain('"name":"In flight"');
  });

  it('cuts what is still running when the shutdown timeout leaves no time for it', async () => {
    gate = new Promise<void>(() => {});
    const busy = await open();
    const inFlight = busy
      .request('POST', '/v1/pets', '{"name":"Never","categoryId":3}')
      .then(String, (error: Error) => error.message);
    await running.close({ drainMs: 0, timeoutMs: 1000 });
    await busy.closed;
    expect(await inFlight).toBe('closed without a whole answer: ');
  });
});
