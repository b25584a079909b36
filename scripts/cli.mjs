// Command-line handling shared by the scripts: node:util parseArgs (strict), a --help that
// prints the script's usage, and a bad argument reported in one line with exit code 2.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/** A bad command line: reported in one line, exit code 2. */
export class UsageError extends Error {}

/**
 * Parses `args` strictly with node:util parseArgs, adding `--help`/`-h`.
 *
 * @param {string[]} args The arguments (process.argv.slice(2) when run from the shell).
 * @param {object} spec
 * @param {string} spec.usage The text `--help` prints.
 * @param {import('node:util').ParseArgsConfig['options']} [spec.options]
 * @param {number} [spec.maxPositionals] How many positional arguments it takes (default 0).
 * @returns {{ values: Record<string, any>, positionals: string[] } | undefined} undefined when
 *   `--help` was asked for (the usage is printed).
 * @throws {UsageError} On an unknown option, a missing value, or too many positionals.
 * @example
 * const cli = parseCommandLine(args, { usage, options: { out: { type: 'string' } } });
 * if (!cli) return 0;
 */
export function parseCommandLine(args, { usage, options = {}, maxPositionals = 0 }) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: maxPositionals > 0,
      strict: true,
    });
  } catch (error) {
    // Its first sentence: "Unknown option '--x'", without the advice on positionals.
    throw new UsageError(/** @type {Error} */ (error).message.split('. ')[0]);
  }
  if (parsed.values.help) {
    console.log(usage.trim());
    return undefined;
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`Unexpected argument '${parsed.positionals[maxPositionals]}'`);
  }
  return parsed;
}

/**
 * Runs a script's `main(args)` as the process: its result (default 0) becomes the exit code;
 * a UsageError prints `<script>: <message> (--help for usage)` and exits 2; any other error
 * propagates (Node prints it and exits 1).
 *
 * @param {(args: string[]) => Promise<number | void>} main
 */
export async function runMain(main) {
  try {
    process.exitCode = (await main(process.argv.slice(2))) ?? 0;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const script = path.basename(process.argv[1] ?? 'script');
    console.error(`${script}: ${error.message} (--help for usage)`);
    process.exitCode = 2;
  }
}

/** True when the module at `url` (its import.meta.url) is the script Node was started with. */
export function isMain(url) {
  const script = process.argv[1];
  return script !== undefined && url === pathToFileURL(realpathSync(script)).href;
}
