import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '../../src/keys/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { expectError } from '../support/contract.js';
import { get } from '../support/requests.js';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

let dir: string;
let databaseFile: string;
let server: TestServer;

/** `npm run --silent keys -- …args` from the repository root, as the README says. */
async function keys(...args: string[]) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'keys', '--', ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: `file:${databaseFile}` },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'petstore-cli-'));
  databaseFile = path.join(dir, 'petstore.db');
  server = await startTestServer({ databaseFile });
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

  it('lists keys by prefix and never prints a raw key', async () => {
    const listed = await keys('list');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`${rawKey.slice(0, 8)}…`);
    expect(lines[0]).toContain('free');
    expect(lines[0]).toContain('active');
    expect(lines[1]).toContain('enterprise');
    expect(listed.stdout).not.toContain(rawKey);
  });

  it('revokes a key: the server answers 401 with it at once', async () => {
    const revoked = await keys('revoke', '1');
    expect(revoked).toMatchObject({ code: 0, stdout: 'Revoked key 1.\n' });
    await expectError(await get(server, rawKey, '/v1/pets'), 401, 'unauthorized');
    expect((await keys('list')).stdout.split('\n')[0]).toContain('revoked');
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
