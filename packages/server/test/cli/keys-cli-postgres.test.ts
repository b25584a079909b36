import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '../../src/keys/index.js';
import { lastLine, runKeysCli } from '../support/keys-cli.js';
import { linesUpToMarker, logFrom, TROUBLE } from '../support/postgres-log.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';

let database: TemporaryPostgresDatabase;

beforeAll(async () => {
  database = await createTemporaryPostgresDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe('npm run keys on PostgreSQL', { timeout: 120_000 }, () => {
  // Each run is a short-lived process: whatever connection it opens must be logged in and
  // closed with a goodbye before it exits, or PostgreSQL logs the half-open login
  // ("FATAL: expected SASL response, got message type 88": 88 is 'X', the Terminate message).
  it('creates, lists, rotates and revokes keys, leaving nothing in PostgreSQL’s log', async () => {
    const log = logFrom();
    const keys = (...args: string[]) => runKeysCli(database.url, ...args);

    const created = await keys('create', '--plan', 'free', '--name', 'ci bot');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(lastLine(created.stdout)).toMatch(API_KEY_PATTERN);
    expect((await keys('create', '--plan', 'pro')).code).toBe(0);
    expect((await keys('list')).stdout).toContain('ci bot');
    expect(JSON.parse((await keys('list', '--json')).stdout)).toHaveLength(2);
    expect((await keys('rotate', '2', '--grace', '0')).code).toBe(0);
    expect(await keys('revoke', '1')).toMatchObject({ code: 0, stdout: 'Revoked key 1.\n' });

    const marker = `petstore-keys-cli-${randomBytes(6).toString('hex')}`;
    const logged = await linesUpToMarker(log, database.url, marker);
    // Ours: the lines naming this test's database, and those naming none (a login cut off
    // before its startup packet, which names the database, was read).
    const ours = logged.filter(
      (line) => line.includes(database.name) || line.includes('startup packet'),
    );
    expect(ours.filter((line) => TROUBLE.test(line))).toEqual([]);
  });
});
