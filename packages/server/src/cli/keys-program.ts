import columnify from 'columnify';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Clock } from '../clock.js';
import type { ApiKeyRecord, Plan } from '../domain.js';
import {
  DEFAULT_ROTATION_GRACE_SECONDS,
  issueApiKey,
  keyStateAt,
  MAX_ROTATION_GRACE_SECONDS,
  PlanQuotaError,
  plans,
  rotateApiKey,
} from '../keys/index.js';
import type { Storage } from '../storage/index.js';

export interface KeysProgramIo {
  /** Opens the store the `DATABASE_URL` names (called once per command). */
  openStorage(): Promise<Storage>;
  out(line: string): void;
  /** What "now" is when `list` tells active, expiring, expired and revoked keys apart. */
  clock: Clock;
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < 1) {
    throw new InvalidArgumentError('must be a whole number of at least 1.');
  }
  return Number(value);
}

function graceSeconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > MAX_ROTATION_GRACE_SECONDS) {
    throw new InvalidArgumentError(
      `must be a whole number of seconds from 0 to ${MAX_ROTATION_GRACE_SECONDS} (30 days).`,
    );
  }
  return Number(value);
}

/** Control characters of a name shown as escapes (`\u001b`), so a name cannot steer the terminal. */
const printable = (text: string) =>
  text.replace(/\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A key's state at `now`, in words: `active`, `expires at …`, `expired at …`, `revoked at …`. */
function describeState(key: ApiKeyRecord, now: number): string {
  switch (keyStateAt(key, now)) {
    case 'active':
      return 'active';
    case 'expiring':
      return `expires at ${key.expiresAt}`;
    case 'expired':
      return `expired at ${key.expiresAt}`;
    case 'revoked':
      return `revoked at ${key.revokedAt}`;
  }
}

/** The keys as a table: a header row, then one aligned row per key. */
function keysTable(keys: ApiKeyRecord[], now: number): string[] {
  const rows = keys.map((key) => ({
    id: key.id,
    prefix: `${key.displayPrefix}…`,
    plan: key.plan,
    perMinute: key.perMinute,
    perDay: key.perDay,
    created: key.createdAt,
    state: describeState(key, now),
    replaces: key.replacesId ?? '-',
    name: printable(key.name ?? ''),
  }));
  const right = { align: 'right' } as const;
  const table = columnify(rows, {
    columnSplitter: '  ',
    config: {
      id: right,
      perMinute: { ...right, headingTransform: () => 'PER MINUTE' },
      perDay: { ...right, headingTransform: () => 'PER DAY' },
      replaces: right,
    },
  });
  return table.split('\n').map((line) => line.trimEnd());
}

async function withStorage<T>(
  io: KeysProgramIo,
  run: (storage: Storage) => Promise<T>,
): Promise<T> {
  const storage = await io.openStorage();
  try {
    return await run(storage);
  } finally {
    await storage.close();
  }
}

/**
 * The `keys` command: create, list, revoke and rotate API keys in the store the server uses.
 * `create` and `rotate` print the raw key as the last line of stdout, once; only its SHA-256
 * is stored. `list --json` prints one JSON document (the records, never a hash or a raw key).
 *
 * @example
 * ```ts
 * await buildKeysProgram(io).parseAsync(['create', '--plan', 'free'], { from: 'user' });
 * ```
 */
export function buildKeysProgram(io: KeysProgramIo): Command {
  const program = new Command('keys')
    .description('Manage the API keys of the Pet Store server (uses DATABASE_URL).')
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('create')
    .description(
      'Create a key; prints the raw key as the last line, once (only its hash is stored).',
    )
    .addOption(
      new Option('--plan <plan>', 'the plan setting its rate limits')
        .choices(plans)
        .makeOptionMandatory(),
    )
    .option(
      '--per-minute <n>',
      'requests per minute (enterprise only, required there)',
      wholeNumber,
    )
    .option('--per-day <n>', 'requests per day (enterprise only, required there)', wholeNumber)
    .option('--name <text>', 'a label to recognise the key by (e.g. who holds it)')
    .action(async (options: { plan: Plan; perMinute?: number; perDay?: number; name?: string }) => {
      let issued;
      try {
        issued = await withStorage(io, (storage) =>
          issueApiKey(storage.keys, {
            plan: options.plan,
            quota: { perMinute: options.perMinute, perDay: options.perDay },
            name: options.name,
          }),
        );
      } catch (error) {
        if (error instanceof PlanQuotaError) program.error(`error: ${error.message}`);
        throw error;
      }
      const { raw, record } = issued;
      io.out(
        `Created key ${record.id} on the ${record.plan} plan (${record.perMinute}/minute, ${record.perDay}/day).`,
      );
      io.out('Store it now: it is shown this once and cannot be recovered.');
      io.out(raw);
    });

  program
    .command('list')
    .description(
      'List every key: id, prefix, plan, limits, created, state, the key it replaces, name.',
    )
    .option('--json', 'print one JSON array of the key records (never hashes or raw keys)')
    .action(async (options: { json?: boolean }) => {
      const keys = await withStorage(io, (storage) => storage.keys.list());
      const now = io.clock.now();
      if (options.json) {
        const records = keys.map((key) => ({ ...key, state: keyStateAt(key, now) }));
        io.out(JSON.stringify(records, null, 2));
        return;
      }
      if (keys.length === 0) {
        io.out('No keys yet: create one with `npm run --silent keys -- create --plan free`.');
        return;
      }
      for (const line of keysTable(keys, now)) io.out(line);
    });

  program
    .command('revoke')
    .description('Revoke a key by its id (see `keys list`); it stops working at once.')
    .argument('<id>', 'the key id', wholeNumber)
    .action(async (id: number) => {
      const revoked = await withStorage(io, (storage) => storage.keys.revoke(id));
      if (!revoked) program.error(`error: no active key has id ${id}.`);
      io.out(`Revoked key ${id}.`);
    });

  program
    .command('rotate')
    .description(
      'Replace a key with a new one of the same plan, limits and name; prints the new raw key ' +
        'as the last line, once. The old key keeps working for the grace period, then gets 401.',
    )
    .argument('<id>', 'the id of the active key to replace', wholeNumber)
    .option(
      '--grace <seconds>',
      `how long the old key keeps working (0: stops at once; at most ${MAX_ROTATION_GRACE_SECONDS})`,
      graceSeconds,
      DEFAULT_ROTATION_GRACE_SECONDS,
    )
    .action(async (id: number, options: { grace: number }) => {
      const rotation = await withStorage(io, async (storage) => {
        const result = await rotateApiKey(storage.keys, id, { graceSeconds: options.grace });
        if (result.kind !== 'replaced') return result;
        const replacement = (await storage.keys.list()).find((key) => key.replacesId === id);
        return { ...result, replacement };
      });
      switch (rotation.kind) {
        case 'unknown':
          return program.error(`error: no key has id ${id}.`);
        case 'revoked':
          return program.error(
            `error: key ${id} was revoked at ${rotation.key.revokedAt}; create a new key instead.`,
          );
        case 'replaced':
          return program.error(
            `error: key ${id} was rotated already (${describeState(rotation.key, io.clock.now())}); ` +
              `rotate its replacement${rotation.replacement ? `, key ${rotation.replacement.id}` : ''}.`,
          );
      }
      const { raw, record, replaced } = rotation;
      io.out(
        `Created key ${record.id} to replace key ${id} on the ${record.plan} plan (${record.perMinute}/minute, ${record.perDay}/day).`,
      );
      io.out(
        options.grace === 0
          ? `Key ${id} is revoked as of now (no grace period).`
          : `Key ${id} keeps working until ${replaced.expiresAt} (${options.grace} s), then it is refused with 401.`,
      );
      io.out('Store it now: it is shown this once and cannot be recovered.');
      io.out(raw);
    });

  return program;
}
