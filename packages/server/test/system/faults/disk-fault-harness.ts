/**
 * Runs a real server on a SQLite file on a tiny tmpfs, makes the disk fail, then repairs it,
 * and prints what it saw as one JSON line (`DiskFaultReport`) on stdout. It asserts nothing
 * itself: `disk-faults.test.ts` does. It mounts the tmpfs, so it runs in a mount namespace of
 * its own:
 *
 *   unshare -Urm node --import tsx test/system/faults/disk-fault-harness.ts full|read-only
 *
 * (`-U` maps the caller to root in a new user namespace, so this works unprivileged too; `-m`
 * gives it its own mounts, which vanish with it.)
 *
 * - `full`: a filler file takes every free byte (its last write fails with ENOSPC); repaired
 *   by deleting it.
 * - `read-only`: every write to the database files fails with EROFS, as on a filesystem
 *   that turned read-only (see `failWrites` for why not `mount -o remount,ro`); repaired by
 *   letting writes through again.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createMemoryRateLimiter, startTestServer } from '../../../src/testing/index.js';
import { failWrites } from '../../support/failing-writes.js';

export type DiskFault = 'full' | 'read-only';

/** A response as the test needs it back: status, headers and the parsed JSON body. */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface DiskFaultReport {
  fault: DiskFault;
  /** The error the disk gave: the filler's last write (ENOSPC), or the injected EROFS. */
  diskError: string;
  /** The creates sent on the failing disk, up to and including the first that was not 201. */
  createsWhileFailing: RecordedResponse[];
  whileFailing: {
    /** A create with an `Idempotency-Key`. */
    idempotentCreate: RecordedResponse;
    list: RecordedResponse;
    get: RecordedResponse;
    readyz: RecordedResponse;
    healthz: RecordedResponse;
  };
  afterRepair: {
    create: RecordedResponse;
    /** The same create with the same `Idempotency-Key`, sent again. */
    idempotentCreate: RecordedResponse;
    readyz: RecordedResponse;
  };
  /** Every create answered 201, in order: before the fault, during it, after it. */
  acknowledged: unknown[];
  /** The whole listing after the repair. */
  listed: unknown[];
  /** `PRAGMA integrity_check` of the database file once the server has closed it. */
  integrity: string;
}

/** Big enough for the schema, a key and a few pets; small enough to fill at once. */
const DISK_BYTES = 512 * 1024;
/** How many creates may land in space SQLite already holds before one must be refused. */
const MAX_CREATES_WHILE_FAILING = 200;

async function record(response: Promise<Response>): Promise<RecordedResponse> {
  const answer = await response;
  const text = await answer.text();
  return {
    status: answer.status,
    headers: Object.fromEntries(answer.headers),
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

/** Writes zeros to `file` until the disk refuses; returns the errno code it refused with. */
function fillDisk(file: string): string {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(4096);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  } finally {
    closeSync(fd);
  }
}

/** Breaks the disk the database is on; resolves with the error it gives and how to repair it. */
async function breakDisk(
  fault: DiskFault,
  dir: string,
  databaseFile: string,
): Promise<{ diskError: string; repair: () => Promise<void> }> {
  if (fault === 'full') {
    const filler = path.join(dir, 'filler');
    const diskError = fillDisk(filler);
    return { diskError, repair: async () => rmSync(filler) };
  }
  const files = ['', '-wal', '-shm'].map((suffix) => `${databaseFile}${suffix}`);
  const writes = await failWrites(process.pid, files, 'EROFS');
  return { diskError: 'EROFS', repair: () => writes.stop() };
}

async function run(fault: DiskFault): Promise<DiskFaultReport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'petstore-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_BYTES},mode=0700`, 'tmpfs', dir]);
  try {
    const databaseFile = path.join(dir, 'petstore.db');
    const server = await startTestServer({
      databaseFile,
      limiter: (clock) => createMemoryRateLimiter({ clock }),
    });
    const key = await server.createKey('enterprise');
    const authorization = { Authorization: `Bearer ${key}` };
    const acknowledged: unknown[] = [];
    let sent = 0;
    const create = async (
      pet = { name: `Pet ${++sent}`, categoryId: sent },
      headers: Record<string, string> = {},
    ) => {
      const answer = await record(
        fetch(`${server.baseUrl}/pets`, {
          method: 'POST',
          headers: { ...authorization, 'Content-Type': 'application/json', ...headers },
          body: JSON.stringify(pet),
        }),
      );
      if (answer.status === 201) acknowledged.push(answer.body);
      return answer;
    };
    const get = (pathAndQuery: string) =>
      record(fetch(`${server.url}${pathAndQuery}`, { headers: authorization }));
    const retried = { name: 'Retried', categoryId: 0 };
    const retryKey = { 'Idempotency-Key': '"while-failing"' };

    for (let i = 0; i < 3; i++) await create();
    const first = acknowledged[0] as { id: number };

    const { diskError, repair } = await breakDisk(fault, dir, databaseFile);
    const createsWhileFailing: RecordedResponse[] = [];
    while (createsWhileFailing.length < MAX_CREATES_WHILE_FAILING) {
      const answer = await create();
      createsWhileFailing.push(answer);
      if (answer.status !== 201) break;
    }
    const whileFailing = {
      idempotentCreate: await create(retried, retryKey),
      list: await get('/v1/pets?limit=100'),
      get: await get(`/v1/pets/${first.id}`),
      readyz: await get('/readyz'),
      healthz: await get('/healthz'),
    };

    await repair();
    const afterRepair = {
      create: await create(),
      idempotentCreate: await create(retried, retryKey),
      readyz: await get('/readyz'),
    };
    const listed = (await get('/v1/pets?limit=100')).body as unknown[];
    await server.close();

    const db = new BetterSqlite3(databaseFile, { readonly: true });
    const integrity = db.pragma('integrity_check', { simple: true }) as string;
    db.close();
    return {
      fault,
      diskError,
      createsWhileFailing,
      whileFailing,
      afterRepair,
      acknowledged,
      listed,
      integrity,
    };
  } finally {
    execFileSync('umount', ['--lazy', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
}

const fault = process.argv[2];
if (fault !== 'full' && fault !== 'read-only') {
  process.stderr.write('usage: disk-fault-harness.ts full|read-only\n');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify(await run(fault))}\n`);
