import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, connect, type Socket } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { requestId, sendJson, writeGatheredHeadersOn } from '../../src/http/index.js';
import { expressMessageClasses } from '../../src/server/express-messages.js';
import { createHttpServer } from '../../src/server/http-server.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { expectApiHeaders } from '../support/contract.js';
import { serverDir } from '../support/server-process.js';

/** A raw TCP client, to be as slow or as large as a test wants. */
async function open(
  url: string,
): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) =>
    socket.once('connect', resolve).once('error', reject),
  );
  let data = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  return { socket, received: () => data, closed };
}

/**
 * Asserts a raw answer of the HTTP layer: the status line, the Error body (`invalid_request`
 * with that status), an X-Request-Id, the rate-limit headers, and a closed connection.
 */
function expectTransportError(raw: string, status: number): void {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  expect(head).toMatch(/\r\nConnection: close\r\n/);
  expect(head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
  expect(head).toMatch(/\r\nX-RateLimit-Remaining: \d+\r\n/);
  expect(head).toMatch(/\r\nRateLimit: "minute";r=\d+;t=\d+, "day";r=\d+;t=\d+(\r\n|$)/);
  expect(JSON.parse(body)).toMatchObject({ code: 'invalid_request', status });
}

describe('transport limits', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer({
      http: { headersTimeoutMs: 500, requestTimeoutMs: 1_000, maxHeaderBytes: 4096 },
    });
    key = await server.createKey('pro');
  });
  afterAll(() => server.close());

  const healthy = async () => (await fetch(`${server.url}/healthz`)).status;

  it('closes a connection that trickles its headers (slowloris) with 408, serving others meanwhile', async () => {
    const slow = await open(server.url);
    slow.socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => slow.socket.write('X-A: b\r\n'), 100);
    try {
      expect(await healthy()).toBe(200);
      await slow.closed;
    } finally {
      clearInterval(trickle);
    }
    expectTransportError(slow.received(), 408);
    expect(await healthy()).toBe(200);
  });

  it('closes a connection that trickles its body with 408 once the request deadline passes', async () => {
    const slow = await open(server.url);
    slow.socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":',
    );
    const trickle = setInterval(() => slow.socket.write(' '), 100);
    try {
      await slow.closed;
    } finally {
      clearInterval(trickle);
    }
    expectTransportError(slow.received(), 408);
    expect(await server.storage.pets.list({ limit: 10 })).toEqual([]);
  });

  it('refuses a request head over the limit with 431', async () => {
    const response = await fetch(`${server.baseUrl}/pets`, {
      headers: { Authorization: `Bearer ${key}`, 'X-Padding': 'x'.repeat(8192) },
    });
    expect(response.status).toBe(431);
    expectApiHeaders(response);
    expect(await response.json()).toMatchObject({ code: 'invalid_request', status: 431 });
    expect(await healthy()).toBe(200);
  });

  it.each([
    ['a raw non-ASCII byte in the path', 'GET /v1/pets/\u0661 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an unknown method', 'FOO /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'],
    [
      'a control character in a header value',
      'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n',
    ],
    ['not HTTP at all', 'hello\r\n\r\n'],
  ])('answers %s with 400 and the Error body, not a bare status line', async (_case, raw) => {
    const client = await open(server.url);
    client.socket.write(Buffer.from(raw, 'utf8'));
    await client.closed;
    expectTransportError(client.received(), 400);
  });
});

describe('a graceful stop that begins in the turn an answer is sent', () => {
  it('still gives that answer Connection: close: its head is written at the end of the turn', async () => {
    // The route answers, and in the same turn the stop begins (a signal handled in the same
    // poll phase as the request): the head must still be open to Connection: close.
    const app = express();
    // As createApp does: with X-Powered-By set by Express, the answer would not take the
    // one-call writeHead path this test is about.
    app.disable('x-powered-by');
    writeGatheredHeadersOn(app.response);
    app.use(requestId());
    app.get('/answer', (_req, res) => {
      sendJson(res, 200, { answered: true });
      http.stopKeepingAlive();
    });
    const http = createHttpServer(app, loadConfig({}).http);
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = http.server.address() as AddressInfo;
      const client = await open(`http://127.0.0.1:${port}`);
      client.socket.write('GET /answer HTTP/1.1\r\nHost: x\r\n\r\n');
      await client.closed;
      const [head = '', body = ''] = client.received().split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head).toMatch(/\r\nConnection: close\r\n/);
      expect(head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
      expect(JSON.parse(body)).toEqual({ answered: true });
    } finally {
      http.server.closeAllConnections();
      await new Promise((resolve) => http.server.close(resolve));
    }
  });
});

describe('a graceful stop while an answer waits behind a pipelined one', () => {
  it('gives the waiting answer Connection: close, though it has no socket yet when its head is written', async () => {
    // GET /first has sent its head and streams its body; GET /second, pipelined behind it,
    // answers after the stop has begun, while it still waits for the connection.
    const app = express();
    let finishFirst = () => {};
    app.get('/first', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first, ');
      finishFirst = () => res.end('done');
    });
    app.get('/second', (_req, res) => {
      http.stopKeepingAlive();
      res.type('text/plain').send('second');
      expect(res.socket).toBeNull();
      finishFirst();
    });
    const http = createHttpServer(app, loadConfig({}).http);
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = http.server.address() as AddressInfo;
      const client = await open(`http://127.0.0.1:${port}`);
      client.socket.write(
        'GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\n\r\n',
      );
      await client.closed;
      const answers = client.received().split(/(?=HTTP\/1\.1 )/);
      expect(answers).toHaveLength(2);
      // The first head went out before the stop: keep-alive, as the answer was then.
      expect(answers[0]).toMatch(/^HTTP\/1\.1 200 [^]*\r\nConnection: keep-alive\r\n/);
      expect(answers[0]).toMatch(/first, [^]*done/);
      expect(answers[1]).toMatch(/^HTTP\/1\.1 200 [^]*\r\nConnection: close\r\n/);
      expect(answers[1]).toMatch(/\r\n\r\nsecond$/);
    } finally {
      http.server.closeAllConnections();
      await new Promise((resolve) => http.server.close(resolve));
    }
  });
});

describe('requests and responses', () => {
  it("are made with the app's own prototypes, so Express never has to change them", async () => {
    const app = express();
    app.get('/hello', (req, res) => {
      res.json({ path: req.path, ip: req.ip });
    });
    const limits = {
      headersTimeoutMs: 1_000,
      requestTimeoutMs: 2_000,
      keepAliveTimeoutMs: 1_000,
      maxHeaderBytes: 4096,
    };
    const { server } = createHttpServer(app, limits);
    // Seen before the app's listener, so before Express's own setPrototypeOf.
    const born: { request: boolean; response: boolean }[] = [];
    server.prependListener('request', (req, res) => {
      born.push({
        request: Object.getPrototypeOf(req) === app.request,
        response: Object.getPrototypeOf(res) === app.response,
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/hello`);
      // Express's request and response methods work on them as on any.
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ path: '/hello', ip: '127.0.0.1' });
      expect(born).toEqual([{ request: true, response: true }]);
      // The warm-up's listener gets the same classes, so its requests have the same shapes.
      expect(expressMessageClasses(app)).toBe(expressMessageClasses(app));
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("keep the fast layout of Node's own (V8's %HasFastProperties, in a process of its own)", () => {
    // Made by calling Node's constructors as plain functions on an object of their own (this
    // code's first version), V8 kept their properties in a dictionary instead: on Node.js 24
    // that cost more instructions than Express's setPrototypeOf saved (express-messages.ts).
    const script = `
      import { createServer } from 'node:http';
      import express from 'express';
      const { expressMessageClasses } = await import('./src/server/express-messages.ts');
      const app = express();
      const seen = [];
      const look = (req, res) => seen.push([%HasFastProperties(req), %HasFastProperties(res)]);
      const ours = createServer(expressMessageClasses(app), (req, res) => { look(req, res); res.end(); });
      const nodes = createServer((req, res) => { look(req, res); res.end(); });
      for (const server of [ours, nodes]) {
        await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
        await (await fetch('http://127.0.0.1:' + server.address().port + '/')).text();
        server.close();
        server.closeAllConnections();
      }
      console.log(JSON.stringify(seen));
    `;
    const run = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: serverDir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([
      [true, true],
      [true, true],
    ]);
  });
});
