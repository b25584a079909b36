import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';

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
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
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
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(await server.storage.pets.list({ limit: 10 })).toEqual([]);
  });

  it('refuses a request head over the limit with 431', async () => {
    const response = await fetch(`${server.baseUrl}/pets`, {
      headers: { Authorization: `Bearer ${key}`, 'X-Padding': 'x'.repeat(8192) },
    });
    expect(response.status).toBe(431);
    expect(await healthy()).toBe(200);
  });
});
