import { Command, InvalidArgumentError, Option } from 'commander';
import type { ApiKeyRecord, Plan } from '../domain.js';
import { issueApiKey, PlanQuotaError, plans } from '../keys/index.js';
import type { Storage } from '../storage/index.js';

export interface KeysProgramIo {
  /** Opens the store the `DATABASE_URL` names (called once per command). */
  openStorage(): Promise<Storage>;
  out(line: string): void;
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < 1) {
    throw new InvalidArgumentError('must be a whole number of at least 1.');
  }
  return Number(value);
}

function describeKey(key: ApiKeyRecord): string {
  const state = key.revokedAt === null ? 'active' : `revoked ${key.revokedAt}`;
  return [
    String(key.id).padStart(4),
    `${key.displayPrefix}…`,
    key.plan.padEnd(10),
    `${key.perMinute}/min`.padEnd(12),
    `${key.perDay}/day`.padEnd(14),
    key.createdAt,
    state.padEnd(8),
    key.name ?? '',
  ].join('  ');
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
 * The `keys` command: create, list and revoke API keys in the store the server uses.
 * `create` prints the raw key as the last line of stdout, once; only its SHA-256 is stored.
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
    .description('List every key (id, prefix, plan, limits, created, state, name); never the keys.')
    .action(async () => {
      const keys = await withStorage(io, (storage) => storage.keys.list());
      if (keys.length === 0) {
        io.out('No keys yet: create one with `npm run --silent keys -- create --plan free`.');
        return;
      }
      for (const key of keys) io.out(describeKey(key));
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

  return program;
}
