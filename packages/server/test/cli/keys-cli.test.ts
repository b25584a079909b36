import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '../../src/keys/index.js';
import { createTestClock, startTestServer, type TestServer } from '../../src/testing/index.js';
import { expectError } from '../support/contract.js';
import { lastLine, runKeysCli } from '../support/keys-cli.js';
import { get } from '../support/requests.js';

let dir: string;
let databaseFile: string;
let server: TestServer;

/** `npm run --silent keys -- …args` on the test's SQLite file. */
const keys = (...args: string[]) => runKeysCli(`file:${databaseFile}`, ...args);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'petstore-cli-'));
  databaseFile = path.join(dir, 'petstore.db');
  // The CLI stamps keys with the system clock: the server's test clock starts from it, so a
  // grace period the CLI sets lies ahead of the server until the test moves its clock.
  server = await startTestServer({ databaseFile, clock: createTestClock(Date.now()) });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run keys', { timeout: 60_000 }, () => {
  let rawKey: string;

  it('creates a key, printing the raw key once as the last line; the server accepts it', async () => {
    const created = await keys('create', '--plan', 'free', '--name', 'ci bot');
    expect(created.code).toBe(0);
    rawKey = lastLine(created.stdout);
    expect(rawKey).toMatch(API_KEY_PATTERN);
    expect(created.stdout.split(rawKey)).toHaveLength(2);
    expect(created.stdout).toContain('Created key 1 on the free plan (60/minute, 1000/day).');
    const response = await get(server, rawKey, '/v1/pets');
    expect(response.status).toBe(200);
    expect(response.headers.get('X-RateLimit-Limit')).toBe('60');
  });

  it('stores only the hash: the raw key is nowhere in the database', async () => {
    const [record] = await server.storage.keys.list();
    expect(record).toMatchObject({ id: 1, plan: 'free', name: 'ci bot', revokedAt: null });
    expect(JSON.stringify(await server.storage.keys.list())).not.toContain(rawKey);
  });

  it('creates an enterprise key with the custom quota', async () => {
    const created = await keys(
      'create',
      '--plan',
      'enterprise',
      '--per-minute',
      '5000',
      '--per-day',
      '200000',
    );
    expect(created.code).toBe(0);
    const response = await get(server, lastLine(created.stdout), '/v1/pets');
    expect(response.headers.get('X-RateLimit-Limit')).toBe('5000');
  });

  it('lists keys under a header row, by prefix, and never prints a raw key', async () => {
    const listed = await keys('list');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^ID +PREFIX +PLAN +PER MINUTE +PER DAY +CREATED +STATE +REPLACES +NAME$/,
    );
    expect(lines[1]).toContain(`${rawKey.slice(0, 8)}…`);
    expect(lines[1]).toMatch(/ free +60 +1000 .* active +- +ci bot$/);
    expect(lines[2]).toContain('enterprise');
    expect(listed.stdout).not.toContain(rawKey);
  });

  it('lists keys as one JSON document with --json, without hashes or raw keys', async () => {
    const listed = await keys('list', '--json');
    expect(listed.code).toBe(0);
    const records = JSON.parse(listed.stdout) as Record<string, unknown>[];
    expect(records).toEqual(
      (await server.storage.keys.list()).map((key) => ({ ...key, state: 'active' })),
    );
    expect(listed.stdout).not.toContain(rawKey);
    expect(listed.stdout).not.toMatch(/hash/i);
  });

  it('rotates a key: the new key works at once, the old one until its grace ends, then 401', async () => {
    const old = lastLine((await keys('create', '--plan', 'pro', '--name', 'partner')).stdout);
    const rotation = await keys('rotate', '3', '--grace', '600');
    expect(rotation.code).toBe(0);
    expect(rotation.stdout).toContain(
      'Created key 4 to replace key 3 on the pro plan (300/minute, 10000/day).',
    );
    const fresh = lastLine(rotation.stdout);
    expect(fresh).toMatch(API_KEY_PATTERN);
    const graceEnds = Date.parse(/until (\S+) \(600 s\)/.exec(rotation.stdout)?.[1] ?? '');

    expect((await get(server, old, '/v1/pets')).status).toBe(200);
    expect((await get(server, fresh, '/v1/pets')).status).toBe(200);
    server.clock.set(graceEnds);
    await expectError(await get(server, old, '/v1/pets'), 401, 'unauthorized');
    expect((await get(server, fresh, '/v1/pets')).headers.get('X-RateLimit-Limit')).toBe('300');
  });

  it('exits 1 with the reason, printing no key, when a rotation is refused', async () => {
    const result = await keys('rotate', '3');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: key 3 was rotated already');
    expect(result.stderr).toContain('rotate its replacement, key 4.');
    expect(result.stdout).toBe('');
  });

  it('revokes a key: the server answers 401 with it at once', async () => {
    const revoked = await keys('revoke', '1');
    expect(revoked).toMatchObject({ code: 0, stdout: 'Revoked key 1.\n' });
    await expectError(await get(server, rawKey, '/v1/pets'), 401, 'unauthorized');
    expect((await keys('list')).stdout.split('\n')[1]).toMatch(/ revoked at \S+ +- +ci bot$/);
  });

  it('exits 1 with the reason, printing no key, when a create is refused', async () => {
    const result = await keys('create', '--plan', 'enterprise', '--per-minute', '10');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'The enterprise plan needs both --per-minute N and --per-day N.',
    );
    expect(result.stdout).toBe('');
  });
});
