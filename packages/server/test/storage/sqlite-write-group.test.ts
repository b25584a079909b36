import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { NewPet } from '@petstore/types';
import type { Database } from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openConnection } from '../../src/storage/sqlite/connection.js';
import { migrateSqlite } from '../../src/storage/sqlite/migrations.js';
import { prepareWriteGroup, type WriteRequest } from '../../src/storage/sqlite/write-group.js';
import { serverDir } from '../support/server-process.js';
import type { WriteGroupFaultReport } from './write-group-harness.js';

const harness = fileURLToPath(new URL('./write-group-harness.ts', import.meta.url));

/**
 * A group of writes as the writer thread carries it out (`write-group.ts`), on a connection of
 * the test's own.
 */
describe('SQLite write groups', () => {
  let dir: string;
  let db: Database;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'petstore-write-group-'));
    db = openConnection(path.join(dir, 'petstore.db'));
    migrateSqlite(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const bad = { name: 'Lost', categoryId: 1, status: 'lost' } as unknown as NewPet;
  const create = (id: number, pet: NewPet): WriteRequest => ({
    id,
    operation: { kind: 'createPet', pet },
  });
  const createOnce = (id: number, key: string, pet: NewPet, fingerprint = 'f'): WriteRequest => ({
    id,
    operation: {
      kind: 'createIdempotent',
      pet,
      request: { apiKeyId: 1, key, fingerprint, now: 1_800_000_000_000, expiresAt: 2e12 },
    },
  });
  const outcomes = (answers: ReturnType<ReturnType<typeof prepareWriteGroup>>) =>
    answers.map((answer) => ('error' in answer ? answer.error.code : 'stored'));
  const names = () => db.prepare<[], string>('SELECT name FROM pets ORDER BY id').pluck().all();
  const keys = () =>
    db.prepare<[], string>('SELECT idempotency_key FROM idempotency_keys').pluck().all();

  it('fails a write alone, an idempotent create with its record: the others are committed', () => {
    // The record's insert refused after the pet's (no fingerprint): the create's savepoint
    // undoes its pet too.
    const noFingerprint = null as unknown as string;
    const answers = prepareWriteGroup(db)([
      create(1, { name: 'A', categoryId: 1 }),
      createOnce(2, 'lost', bad),
      createOnce(3, 'b', { name: 'B', categoryId: 2 }),
      create(4, bad),
      createOnce(5, 'c', { name: 'C', categoryId: 3 }, noFingerprint),
    ]);
    expect(outcomes(answers)).toEqual([
      'stored',
      'SQLITE_CONSTRAINT_CHECK',
      'stored',
      'SQLITE_CONSTRAINT_CHECK',
      'SQLITE_CONSTRAINT_NOTNULL',
    ]);
    expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3, 4, 5]);
    expect(db.inTransaction).toBe(false);
    expect(names()).toEqual(['A', 'B']);
    expect(keys()).toEqual(['b']);
  });
});

/**
 * SQLite undoes a whole transaction after an I/O error: the group stops there. In a harness of
 * its own (`write-group-harness.ts`), which traces itself in a user namespace of its own.
 */
describe('SQLite write groups on a failing disk', () => {
  let report: WriteGroupFaultReport;

  beforeAll(async () => {
    const { stdout } = await promisify(execFile)(
      'unshare',
      ['-Ur', process.execPath, '--import', 'tsx', harness],
      { cwd: serverDir, timeout: 55_000 },
    );
    report = JSON.parse(stdout) as WriteGroupFaultReport;
  }, 60_000);

  it('fails every write of the group with the I/O error, and stores none of them', () => {
    expect(report.whileFailing.map(({ id }) => id)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(new Set(report.whileFailing.map(({ outcome }) => outcome))).toEqual(
      new Set(['SQLITE_IOERR_WRITE']),
    );
    expect(report.petsAfterFailure).toBe(0);
    expect(report.recordsAfterFailure).toBe(0);
  });

  it('goes on on the same connection once the writes go through', () => {
    expect(report.afterRepair).toEqual(['stored']);
    expect(report.petsAfterRepair).toBe(1);
  });
});
