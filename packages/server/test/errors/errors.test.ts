import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger/index.js';
import type { Storage } from '../../src/storage/index.js';
import { startTestServer } from '../../src/testing/index.js';
import { expectApiHeaders, expectError } from '../support/contract.js';
import { get, postPet } from '../support/requests.js';

/** A logger whose JSON lines the test can read. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', { destination: stream }), lines };
}

describe('errors', () => {
  it('answers 404 not_found for an unknown path under /v1 and elsewhere', async () => {
    const server = await startTestServer();
    try {
      const key = await server.createKey();
      for (const path of ['/v1/owners', '/v1/pets/1/toys', '/nothing-here']) {
        const response = await get(server, key, path);
        expectApiHeaders(response);
        const error = await expectError(response, 404, 'not_found');
        expect(error.message).toBe('Nothing exists at this path.');
      }
    } finally {
      await server.close();
    }
  });

  it('answers 404 outside /v1 whatever the request carries: no body is read there', async () => {
    const server = await startTestServer();
    try {
      const key = await server.createKey();
      const requests: [string, RequestInit][] = [
        // Not JSON, in a JSON content type: under /v1 that is a 400.
        [
          '/nothing-here',
          { method: 'POST', body: '{bad', headers: { 'Content-Type': 'application/json' } },
        ],
        // A lone surrogate and a non-decimal integer in the query.
        ['/nothing-here?name=%ED%A0%80&limit=0x10', { method: 'GET' }],
        // An encoding no parser reads: under /v1 that is a 415.
        [
          '/nothing-here',
          {
            method: 'POST',
            body: 'x',
            headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'zstd' },
          },
        ],
      ];
      for (const [path, init] of requests) {
        const response = await fetch(`${server.url}${path}`, {
          ...init,
          headers: { ...init.headers, Authorization: `Bearer ${key}` },
        });
        expectApiHeaders(response);
        await expectError(response, 404, 'not_found');
      }
    } finally {
      await server.close();
    }
  });

  it.each([
    ['PUT', '/v1/pets', 'GET, HEAD, POST'],
    ['DELETE', '/v1/pets', 'GET, HEAD, POST'],
    ['DELETE', '/v1/pets/1', 'GET, HEAD'],
    ['POST', '/v1/pets/1', 'GET, HEAD'],
    ['POST', '/healthz', 'GET, HEAD'],
    ['DELETE', '/openapi.json', 'GET, HEAD'],
  ])('answers 405 with Allow for %s %s', async (method, path, allow) => {
    const server = await startTestServer();
    try {
      const key = await server.createKey();
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(response.headers.get('Allow')).toBe(allow);
      if (path.startsWith('/v1/')) expectApiHeaders(response);
      await expectError(response, 405, 'method_not_allowed');
    } finally {
      await server.close();
    }
  });

  it('answers 500 internal_error without internals when something breaks, and logs it with the request id', async () => {
    const { logger, lines } = capturingLogger();
    // It breaks once the server is up: broken from the start, the warm-up's 500 would stop it.
    let broken = false;
    const server = await startTestServer({
      logger,
      decorateStorage: (storage) => ({
        ...storage,
        pets: {
          ...storage.pets,
          list: async (query) => {
            if (!broken) return storage.pets.list(query);
            throw new Error('SQLITE_CORRUPT: database disk image is malformed at /srv/secret.db');
          },
        },
      }),
    });
    broken = true;
    try {
      const key = await server.createKey();
      const response = await fetch(`${server.baseUrl}/pets`, {
        headers: { Authorization: `Bearer ${key}`, 'X-Request-Id': 'trace-500' },
      });
      expectApiHeaders(response);
      const text = await response.clone().text();
      const error = await expectError(response, 500, 'internal_error');
      expect(error.message).toBe(
        'An unexpected error occurred. Quote the X-Request-Id when reporting it.',
      );
      expect(text).not.toMatch(/SQLITE|secret|at \//);
      const logged = lines.find(
        (line) => line.msg === 'unexpected error' && line.requestId === 'trace-500',
      );
      expect(logged).toMatchObject({ level: 50, method: 'GET', url: '/v1/pets' });
      expect(JSON.stringify(logged)).toContain('SQLITE_CORRUPT');
    } finally {
      await server.close();
    }
  });

  it('answers 500 with the rate-limit headers when the key store fails', async () => {
    const server = await startTestServer({
      decorateStorage: (storage) => ({
        ...storage,
        keys: {
          ...storage.keys,
          findActiveByHash: async () => {
            throw new Error('connection refused');
          },
        },
      }),
    });
    try {
      const key = await server.createKey();
      const response = await get(server, key, '/v1/pets');
      expectApiHeaders(response);
      expect(response.headers.get('X-RateLimit-Limit')).toBe('60');
      await expectError(response, 500, 'internal_error');
    } finally {
      await server.close();
    }
  });

  /** A store whose created pets come back with a field the contract does not have. */
  const leakyCreate = (storage: Storage): Storage => ({
    ...storage,
    pets: {
      ...storage.pets,
      create: async (pet) => ({ ...(await storage.pets.create(pet)), owner: 'leaked' }),
    },
  });

  it('validates responses: a handler answer that breaks the contract becomes a 500', async () => {
    const { logger, lines } = capturingLogger();
    const server = await startTestServer({ logger, decorateStorage: leakyCreate });
    try {
      const key = await server.createKey();
      const response = await postPet(server, key, { name: 'Rex', categoryId: 1 });
      await expectError(response, 500, 'internal_error');
      expect(lines.some((line) => line.msg === 'unexpected error')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('with response validation off, sends what the handler produced', async () => {
    const server = await startTestServer({
      validateResponses: false,
      decorateStorage: leakyCreate,
    });
    try {
      const key = await server.createKey();
      const response = await postPet(server, key, { name: 'Rex', categoryId: 1 });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ name: 'Rex', owner: 'leaked' });
    } finally {
      await server.close();
    }
  });
});
