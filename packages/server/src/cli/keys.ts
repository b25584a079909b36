/**
 * The keys CLI entry point: `npm run --silent keys -- create --plan free [--name TEXT]`,
 * `keys list [--json]`, `keys revoke <id>`, `keys rotate <id> [--grace SECONDS]`. Reads `DATABASE_URL` like the server (same default, same
 * relative-path rule), so both use one store.
 */
import '../runtime/index.js';
import { systemClock } from '../clock.js';
import { ConfigError, loadConfig, resolveDatabaseUrl } from '../config/index.js';
import { openStorage } from '../storage/index.js';
import { buildKeysProgram } from './keys-program.js';

let databaseUrl: string;
try {
  const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL });
  databaseUrl = resolveDatabaseUrl(config.databaseUrl, process.env.INIT_CWD ?? process.cwd());
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
}

const program = buildKeysProgram({
  openStorage: () => openStorage(databaseUrl, { clock: systemClock }),
  out: (line) => process.stdout.write(`${line}\n`),
  clock: systemClock,
});

await program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
