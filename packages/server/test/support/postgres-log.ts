import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import pg from 'pg';
import { TEST_DATABASE_URL } from './temporary-postgres-database.js';

/**
 * What PostgreSQL logs when a client goes away in the middle of its login or of a session:
 * a FATAL, ERROR or PANIC line, or the LOG lines for a connection dropped before, or without,
 * a goodbye ("invalid length of startup packet" is a Terminate message sent in place of the
 * startup packet).
 */
export const TROUBLE =
  /\b(FATAL|ERROR|PANIC): |startup packet|could not receive data from client|unexpected EOF on client connection/;

/**
 * Lines of the cluster's server log from the moment `logFrom` is called. The log file is
 * `TEST_POSTGRES_LOG` when set; otherwise the one `pg_lsclusters` (Debian's postgresql-common,
 * which `scripts/services.sh` installs) names for the cluster on `TEST_DATABASE_URL`'s port.
 * Reading it takes the rights of the `adm` group or root, as CI has.
 */
export function logFrom(): { read(): string[] } {
  const file = postgresLogFile();
  const start = sizeOf(file);
  return {
    read() {
      const end = sizeOf(file);
      const buffer = Buffer.alloc(Math.max(0, end - start));
      const fd = openSync(file, 'r');
      try {
        readSync(fd, buffer, 0, buffer.length, start);
      } finally {
        closeSync(fd);
      }
      return buffer.toString('utf8').split('\n').filter(Boolean);
    },
  };
}

/**
 * Logs `marker` as a WARNING from a session on `databaseUrl` and returns the lines logged from
 * `log`'s start up to it. Proves that the file read is the one the cluster writes to, and that
 * its lines name the database (log_line_prefix `%d`), which is how a test tells its own lines
 * from those of tests running beside it.
 */
export async function linesUpToMarker(
  log: { read(): string[] },
  databaseUrl: string,
  marker: string,
): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`do $$ begin raise warning '${marker}'; end $$`);
  } finally {
    await client.end();
  }
  const lines = log.read();
  const at = lines.findIndex((line) => line.includes(marker));
  if (at === -1) {
    throw new Error(
      `PostgreSQL's log does not show the marker "${marker}": set TEST_POSTGRES_LOG to the file the cluster logs to.`,
    );
  }
  const database = new URL(databaseUrl).pathname.slice(1);
  if (!lines[at]?.includes(database)) {
    throw new Error(
      `PostgreSQL's log lines do not name the database (log_line_prefix needs %d): ${lines[at]}`,
    );
  }
  return lines.slice(0, at);
}

function sizeOf(file: string): number {
  try {
    closeSync(openSync(file, 'r'));
  } catch (error) {
    throw new Error(
      `Cannot read PostgreSQL's log ${file} (${(error as Error).message}): run as root or in group adm, or set TEST_POSTGRES_LOG.`,
      { cause: error },
    );
  }
  return statSync(file).size;
}

/** The log file of the local cluster listening on `TEST_DATABASE_URL`'s port. */
function postgresLogFile(): string {
  const fromEnvironment = process.env.TEST_POSTGRES_LOG;
  if (fromEnvironment) return fromEnvironment;
  const port = new URL(TEST_DATABASE_URL).port || '5432';
  let clusters: string;
  try {
    clusters = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  } catch (error) {
    throw new Error(
      `pg_lsclusters failed (${(error as Error).message}): set TEST_POSTGRES_LOG to PostgreSQL's log file.`,
      { cause: error },
    );
  }
  // Ver Cluster Port Status Owner Data-directory Log-file
  const cluster = clusters
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((columns) => columns[2] === port && columns[3]?.startsWith('online'));
  const file = cluster?.[6];
  if (!file?.startsWith('/')) {
    throw new Error(
      `pg_lsclusters names no log file for an online cluster on port ${port}: set TEST_POSTGRES_LOG.`,
    );
  }
  return file;
}
