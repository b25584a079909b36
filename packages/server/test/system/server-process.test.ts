import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Pet } from '@petstore/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../../src/storage/index.js';
import { issueKeyIn, listening, spawnServer } from '../support/server-process.js';

let dir: string;
let databaseFile: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'petstore-process-'));
  databaseFile = path.join(dir, 'petstore.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const storeKey = () => issueKeyIn(`file:${databaseFile}`);

const env = () => ({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `file:${databaseFile}` });

describe('the server process', { timeout: 30_000 }, () => {
  it('keeps every acknowledged create after kill -9', async () => {
    const key = await storeKey();
    const server = spawnServer(env());
    const url = await listening(server);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${url}/v1/pets`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `Survivor ${i}`, categoryId: i }),
        }),
      ),
    );
    const acknowledged = (await Promise.all(
      responses.filter((r) => r.status === 201).map((r) => r.json()),
    )) as Pet[];
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe('SIGKILL');
    expect(acknowledged).toHaveLength(50);

    const storage = openSqliteStorage(databaseFile);
    try {
      const stored = await storage.pets.list({ limit: 1000 });
      for (const pet of acknowledged) expect(stored).toContainEqual(pet);
    } finally {
      await storage.close();
    }
  });

  it('logs how to create a key when the store has none, then "listening" after warming up', async () => {
    const server = spawnServer(env());
    const url = await listening(server);
    try {
      const messages = server.logs.map((line) => line.msg);
      const hint = messages.findIndex((msg) => String(msg).startsWith('No active API key yet'));
      expect(hint).toBeGreaterThanOrEqual(0);
      expect(String(messages[hint])).toContain('npm run --silent keys -- create --plan free');
      expect(hint).toBeLessThan(messages.indexOf('listening'));
      // The warm-up requests are not logged as traffic.
      expect(server.logs.filter((line) => line.req !== undefined)).toEqual([]);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });

  it('logs requests as JSON with the request id and never the Authorization header', async () => {
    const key = await storeKey();
    const server = spawnServer(env());
    const url = await listening(server);
    try {
      const response = await fetch(`${url}/v1/pets`, {
        headers: { Authorization: `Bearer ${key}`, 'X-Request-Id': 'log-check' },
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const line = server.logs.find((entry) => entry.msg === 'request completed');
      expect(line).toMatchObject({ req: { id: 'log-check' }, res: { statusCode: 200 } });
      expect(JSON.stringify(server.logs)).not.toContain(key);
      expect(JSON.stringify(server.logs)).not.toMatch(/authorization/i);
      expect(server.logs.some((entry) => String(entry.msg).startsWith('No active API key'))).toBe(
        false,
      );
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('stops on SIGTERM after finishing, closes the store, and exits 0', async () => {
    const server = spawnServer(env());
    await listening(server);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.logs.map((line) => line.msg)).toContain('stopped');
  });

  it('on SIGTERM finishes a request already in flight, then exits 0 with the pet stored', async () => {
    const key = await storeKey();
    const server = spawnServer(env());
    const url = new URL(await listening(server));
    // Expect: 100-continue makes the server confirm it holds the request before the body is sent.
    const request = httpRequest({
      host: url.hostname,
      port: url.port,
      method: 'POST',
      path: '/v1/pets',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        Expect: '100-continue',
      },
    });
    request.flushHeaders();
    await once(request, 'continue');
    server.child.kill('SIGTERM');
    await new Promise<void>((resolve) => {
      const check = () => {
        if (server.logs.some((line) => String(line.msg).startsWith('shutting down'))) resolve();
        else server.child.stdout?.once('data', check);
      };
      check();
    });
    request.end(JSON.stringify({ name: 'Late', categoryId: 1 }));
    const [response] = (await once(request, 'response')) as [IncomingMessage];
    let body = '';
    for await (const chunk of response) body += String(chunk);
    expect(response.statusCode).toBe(201);
    expect(await server.exited).toBe(0);
    const storage = openSqliteStorage(databaseFile);
    try {
      expect(await storage.pets.list({ limit: 10 })).toEqual([JSON.parse(body) as Pet]);
    } finally {
      await storage.close();
    }
  });

  it('keeps pets across a restart', async () => {
    const key = await storeKey();
    const first = spawnServer(env());
    const firstUrl = await listening(first);
    const created = (await (
      await fetch(`${firstUrl}/v1/pets`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1, status: 'sold' }),
      })
    ).json()) as Pet;
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = spawnServer(env());
    const secondUrl = await listening(second);
    try {
      const response = await fetch(`${secondUrl}/v1/pets`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(await response.json()).toEqual([created]);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('exits 1 saying why when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const server = spawnServer({ ...env(), PORT: String(port) });
      expect(await server.exited).toBe(1);
      expect(server.stderr()).toContain(
        `The server could not start: listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
      );
    } finally {
      taken.close();
    }
  });

  it.each([
    ['PORT', 'eighty', 'PORT must be a whole number (got "eighty")'],
    ['PORT', '70000', 'PORT must be at most 65535 (got "70000")'],
    [
      'LOG_LEVEL',
      'loud',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ],
    ['DATABASE_URL', 'mysql://db', 'DATABASE_URL must be file:PATH (SQLite) or postgres://'],
  ])('exits 1 with a clear message when %s is %s', async (name, value, message) => {
    const server = spawnServer({ ...env(), [name]: value });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain('Invalid configuration:');
    expect(server.stderr()).toContain(message);
  });
});
