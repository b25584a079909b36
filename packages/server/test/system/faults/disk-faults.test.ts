import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Pet } from '@petstore/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverDir } from '../../support/server-process.js';
import { expectStoreUnavailable } from '../../support/store-unavailable.js';
import type { DiskFault, DiskFaultReport, RecordedResponse } from './disk-fault-harness.js';

const harness = fileURLToPath(new URL('./disk-fault-harness.ts', import.meta.url));

/** A recorded answer as a fetch Response again, for the contract's assertions. */
const asResponse = ({ status, headers, body }: RecordedResponse) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers });

// Each runs the harness once: a real server on a SQLite file on a 512 KiB tmpfs, in a mount
// namespace of its own; the disk fails, then is repaired (see disk-fault-harness.ts).
describe.each<[DiskFault, string, string]>([
  ['full', 'ENOSPC', 'a filler file has taken every free byte'],
  ['read-only', 'EROFS', 'every write to the database files fails with EROFS'],
])('SQLite on a %s disk', (fault, diskError, how) => {
  let report: DiskFaultReport;

  beforeAll(async () => {
    const { stdout } = await promisify(execFile)(
      'unshare',
      ['-Urm', process.execPath, '--import', 'tsx', harness, fault],
      { cwd: serverDir, maxBuffer: 64 * 1024 * 1024 },
    );
    report = JSON.parse(stdout) as DiskFaultReport;
    expect(report.diskError, how).toBe(diskError);
  }, 120_000);

  it('refuses a create with 503 service_unavailable, Retry-After and the rate-limit headers', async () => {
    const last = report.createsWhileFailing.at(-1)!;
    expect(
      last.status,
      `status of the last of ${report.createsWhileFailing.length} creates sent while ${how}`,
    ).toBe(503);
    await expectStoreUnavailable(asResponse(last));
  });

  it('acknowledges no create it did not store: the 201s are exactly the pets listed after', () => {
    const acknowledged = report.acknowledged as Pet[];
    expect(new Set(acknowledged.map((pet) => pet.id)).size, 'distinct ids among the 201s').toBe(
      acknowledged.length,
    );
    expect(report.listed).toEqual([...acknowledged].sort((a, b) => a.id - b.id));
  });

  it('refuses a create with an Idempotency-Key the same way, without using the key up', async () => {
    await expectStoreUnavailable(asResponse(report.whileFailing.idempotentCreate));
    const retried = report.afterRepair.idempotentCreate;
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.body).toMatchObject({ name: 'Retried', categoryId: 0 });
  });

  it('still answers reads', () => {
    const { list, get } = report.whileFailing;
    expect(list.status).toBe(200);
    expect(get.status).toBe(200);
    expect(get.body).toEqual(report.acknowledged[0]);
  });

  it('fails readiness (503) while liveness stays 200', () => {
    expect(report.whileFailing.readyz.status).toBe(503);
    expect(report.whileFailing.readyz.body).toMatchObject({ status: 'unavailable' });
    expect(report.whileFailing.healthz.status).toBe(200);
  });

  it('creates again once the disk is repaired, without a restart, and is ready again', () => {
    expect(report.afterRepair.create.status).toBe(201);
    expect(report.afterRepair.readyz.status).toBe(200);
  });

  it('leaves the database file intact', () => {
    expect(report.integrity).toBe('ok');
  });
});
