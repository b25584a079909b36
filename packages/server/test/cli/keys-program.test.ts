import { CommanderError } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildKeysProgram } from '../../src/cli/keys-program.js';
import { openSqliteStorage } from '../../src/storage/index.js';
import type { Storage } from '../../src/storage/index.js';
import { createTestClock } from '../../src/testing/index.js';

let storage: Storage;
let out: string[];
let errors: string;
const clock = createTestClock();
const hour = 3_600_000;

/** Runs `keys …args` in-process against an in-memory store; resolves with the exit code. */
async function keys(...args: string[]): Promise<number> {
  const program = buildKeysProgram({
    openStorage: async () => ({ ...storage, close: async () => {} }),
    out: (line) => out.push(line),
    clock,
  });
  for (const command of [program, ...program.commands]) {
    command.exitOverride().configureOutput({
      writeErr: (text) => {
        errors += text;
      },
      writeOut: () => {},
    });
  }
  try {
    await program.parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
}

beforeEach(() => {
  clock.set(Date.UTC(2030, 0, 1));
  storage = openSqliteStorage(':memory:', { clock });
  out = [];
  errors = '';
});
afterEach(() => storage.close());

describe('the keys program', () => {
  it.each([
    ['free', [], 60, 1000],
    ['pro', [], 300, 10000],
    ['business', [], 1000, 100000],
    ['enterprise', ['--per-minute', '7', '--per-day', '70'], 7, 70],
  ])('creates a %s key with its quota', async (plan, extra, perMinute, perDay) => {
    expect(await keys('create', '--plan', plan, ...extra)).toBe(0);
    const [record] = await storage.keys.list();
    expect(record).toMatchObject({ plan, perMinute, perDay, name: null });
    expect(out.at(-1)).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    expect(out.at(-1)?.startsWith(record!.displayPrefix)).toBe(true);
  });

  it.each([
    [['revoke', '1'], 'error: no active key has id 1.'],
    [['rotate', '1'], 'error: no key has id 1.'],
    [['rotate', '0'], "value '0' is invalid for argument 'id'"],
    [['revoke', 'x'], "value 'x' is invalid for argument 'id'"],
    [['create', '--plan', 'gold'], "argument 'gold' is invalid"],
    [['create'], "required option '--plan <plan>' not specified"],
    [
      ['create', '--plan', 'enterprise', '--per-day', '10'],
      'The enterprise plan needs both --per-minute N and --per-day N.',
    ],
    [
      ['create', '--plan', 'enterprise', '--per-minute', '10', '--per-day', '5'],
      '--per-day (5) must be at least --per-minute (10).',
    ],
    [
      ['create', '--plan', 'pro', '--per-minute', '10', '--per-day', '20'],
      'The pro plan has fixed quotas; only enterprise takes --per-minute/--per-day.',
    ],
    [
      ['create', '--plan', 'enterprise', '--per-minute', '0'],
      'must be a whole number of at least 1.',
    ],
  ])('refuses keys %j with a clear message and creates nothing', async (args, message) => {
    expect(await keys(...args)).toBe(1);
    expect(errors).toContain(message);
    expect(out).toEqual([]);
    expect(await storage.keys.list()).toEqual([]);
  });

  it('says how to create a key when listing an empty store', async () => {
    expect(await keys('list')).toBe(0);
    expect(out).toEqual([
      'No keys yet: create one with `npm run --silent keys -- create --plan free`.',
    ]);
  });

  it('lists every key under a header row in aligned columns, with its state at the clock', async () => {
    await keys('create', '--plan', 'free', '--name', 'ci bot');
    await keys('create', '--plan', 'enterprise', '--per-minute', '7', '--per-day', '70');
    await keys('create', '--plan', 'pro', '--name', 'Zoë 日本\u001b[31m');
    clock.advance(hour);
    await keys('rotate', '1', '--grace', '7200');
    await keys('revoke', '2');
    await keys('rotate', '3', '--grace', '60');
    clock.advance(60_000);
    const [k1, k2, k3, k4, k5] = (await storage.keys.list()).map((key) => `${key.displayPrefix}…`);
    out = [];

    expect(await keys('list')).toBe(0);

    expect(out).toEqual([
      'ID  PREFIX     PLAN        PER MINUTE  PER DAY  CREATED                   STATE                                REPLACES  NAME',
      ` 1  ${k1}  free                60     1000  2030-01-01T00:00:00.000Z  expires at 2030-01-01T03:00:00.000Z         -  ci bot`,
      ` 2  ${k2}  enterprise           7       70  2030-01-01T00:00:00.000Z  revoked at 2030-01-01T01:00:00.000Z         -`,
      ` 3  ${k3}  pro                300    10000  2030-01-01T00:00:00.000Z  expired at 2030-01-01T01:01:00.000Z         -  Zoë 日本\\u001b[31m`,
      ` 4  ${k4}  free                60     1000  2030-01-01T01:00:00.000Z  active                                      1  ci bot`,
      ` 5  ${k5}  pro                300    10000  2030-01-01T01:00:00.000Z  active                                      3  Zoë 日本\\u001b[31m`,
    ]);
  });

  it('prints one JSON array of the records and their state with --json, never a hash', async () => {
    expect(await keys('list', '--json')).toBe(0);
    expect(out).toEqual(['[]']);
    await keys('create', '--plan', 'free', '--name', 'ci bot');
    await keys('rotate', '1');
    out = [];

    expect(await keys('list', '--json')).toBe(0);

    expect(out).toHaveLength(1);
    const [old, fresh] = await storage.keys.list();
    expect(JSON.parse(out[0] ?? '')).toEqual([
      { ...old, state: 'expiring' },
      { ...fresh, state: 'active' },
    ]);
    expect(out[0]).not.toMatch(/hash|psk_[A-Za-z0-9_-]{43}/);
  });

  it('rotates a key: a new key like create’s, the old one valid for a day by default', async () => {
    await keys(
      'create',
      '--plan',
      'enterprise',
      '--per-minute',
      '7',
      '--per-day',
      '70',
      '--name',
      'partner',
    );
    out = [];

    expect(await keys('rotate', '1')).toBe(0);

    const [old, fresh] = await storage.keys.list();
    expect(fresh).toMatchObject({
      plan: 'enterprise',
      perMinute: 7,
      perDay: 70,
      name: 'partner',
      replacesId: 1,
    });
    expect(old).toMatchObject({ revokedAt: null, expiresAt: '2030-01-02T00:00:00.000Z' });
    expect(out).toEqual([
      'Created key 2 to replace key 1 on the enterprise plan (7/minute, 70/day).',
      'Key 1 keeps working until 2030-01-02T00:00:00.000Z (86400 s), then it is refused with 401.',
      'Store it now: it is shown this once and cannot be recovered.',
      expect.stringMatching(/^psk_[A-Za-z0-9_-]{43}$/),
    ]);
    expect(out.at(-1)?.startsWith(fresh!.displayPrefix)).toBe(true);
  });

  it('revokes the old key at once when rotating with --grace 0', async () => {
    await keys('create', '--plan', 'free');
    out = [];

    expect(await keys('rotate', '1', '--grace', '0')).toBe(0);

    expect(out[1]).toBe('Key 1 is revoked as of now (no grace period).');
    expect((await storage.keys.list())[0]).toMatchObject({
      revokedAt: '2030-01-01T00:00:00.000Z',
      expiresAt: null,
    });
  });

  it.each([
    [
      ['revoke', '1'],
      'error: key 1 was revoked at 2030-01-01T00:00:00.000Z; create a new key instead.',
    ],
    [
      ['rotate', '1', '--grace', '60'],
      'error: key 1 was rotated already (expires at 2030-01-01T00:01:00.000Z); rotate its replacement, key 2.',
    ],
    [['rotate', '1', '--grace', '0'], 'error: key 1 was revoked at 2030-01-01T00:00:00.000Z'],
  ])('refuses to rotate a key after `keys %j`, printing no key', async (before, message) => {
    await keys('create', '--plan', 'free');
    await keys(...before);
    out = [];
    const listed = await storage.keys.list();

    expect(await keys('rotate', '1')).toBe(1);

    expect(errors).toContain(message);
    expect(out).toEqual([]);
    expect(await storage.keys.list()).toEqual(listed);
  });

  it.each(['-1', '1.5', 'x', '2592001'])('refuses --grace %s, rotating nothing', async (grace) => {
    await keys('create', '--plan', 'free');
    out = [];

    expect(await keys('rotate', '1', '--grace', grace)).toBe(1);

    expect(errors).toContain('must be a whole number of seconds from 0 to 2592000 (30 days).');
    expect(out).toEqual([]);
    expect(await storage.keys.list()).toHaveLength(1);
  });
});
