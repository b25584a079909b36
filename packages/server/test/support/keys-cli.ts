import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** What one run of the keys CLI printed, and its exit code. */
export interface KeysCliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run --silent keys -- …args` from the repository root, as the README says, on the store
 * `databaseUrl` names (`file:PATH` or `postgres://…`).
 */
export async function runKeysCli(databaseUrl: string, ...args: string[]): Promise<KeysCliRun> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'keys', '--', ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as KeysCliRun;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The last line of a CLI's output (where `create` and `rotate` print the raw key). */
export const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';
