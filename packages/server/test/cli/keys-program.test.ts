import { CommanderError } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildKeysProgram } from '../../src/cli/keys-program.js';
import { openSqliteStorage } from '../../src/storage/index.js';
import type { Storage } from '../../src/storage/index.js';

let storage: Storage;
let out: string[];
let errors: string;

/** Runs `keys …args` in-process against an in-memory store; resolves with the exit code. */
async function keys(...args: string[]): Promise<number> {
  const program = buildKeysProgram({
    openStorage: async () => ({ ...storage, close: async () => {} }),
    out: (line) => out.push(line),
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
  storage = openSqliteStorage(':memory:');
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
});
