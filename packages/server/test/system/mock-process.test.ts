import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Pet } from '@petstore/types';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectApiHeaders } from '../support/contract.js';
import { serverDir } from '../support/server-process.js';

let child: ChildProcess;
let stdout = '';
let baseUrl = '';
let key = '';

/** Starts `npm run mock`'s entry on an ephemeral port and reads its banner. */
beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'src/mock/main.ts'], {
    cwd: serverDir,
    // LOG_LEVEL=info: request lines too; NO_COLOR: pino-pretty's lines without colour codes.
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout?.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: string) => {
      stdout += chunk;
      const api = /API: {2}(http:\/\/\S+)/.exec(stdout);
      const sandbox = /Sandbox API key \(pro plan\):\n(psk_\S+)\n/.exec(stdout);
      if (api?.[1] && sandbox?.[1]) {
        baseUrl = api[1];
        key = sandbox[1];
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`the mock exited (${code}):\n${stdout}`)));
  });
}, 60_000);

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

const auth = () => ({ Authorization: `Bearer ${key}` });

describe('npm run mock', () => {
  it('prints the API address and a well-formed sandbox key', () => {
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(key).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
  });

  it('serves the animals of the description examples, in id order', async () => {
    const response = await fetch(`${baseUrl}/pets`, { headers: auth() });
    expect(response.status).toBe(200);
    expectApiHeaders(response);
    expect(await response.json()).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      { id: 2, name: 'Tom', categoryId: 2 },
      { id: 3, name: 'Polly', categoryId: 3, status: 'sold' },
    ]);
  });

  it('keeps state: a created animal is in the next list', async () => {
    const created = await fetch(`${baseUrl}/pets`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Nibbles', categoryId: 4, status: 'pending' }),
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as Pet;
    expect(pet).toEqual({ id: 4, name: 'Nibbles', categoryId: 4, status: 'pending' });

    const listed = await fetch(`${baseUrl}/pets?status=pending`, { headers: auth() });
    expect(await listed.json()).toEqual([pet]);
  });

  it('is the real server: a request without the key gets 401', async () => {
    const response = await fetch(`${baseUrl}/pets`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('prints readable log lines (pino-pretty), not JSON', async () => {
    const response = await fetch(`${baseUrl}/pets?limit=1`, { headers: auth() });
    expect(response.status).toBe(200);
    const id = response.headers.get('x-request-id');
    const line = new RegExp(
      String.raw`^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request completed: GET /v1/pets\?limit=1 200 in [\d.]+ ms \(id ${id}\)$`,
      'm',
    );
    await vi.waitFor(() => expect(stdout).toMatch(line));
    expect(stdout).toMatch(/^\[[\d:.]+\] INFO: listening$/m);
    expect(stdout).not.toContain('"msg":');
  });
});
