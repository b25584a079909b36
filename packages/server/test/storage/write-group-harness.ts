/**
 * Carries out a group of writes on a SQLite file while every write to its WAL fails with `EIO`
 * (strace's fault injection on this very process, `failWrites`), then one more group once the
 * writes go through again, and prints what it saw as one JSON line (`WriteGroupFaultReport`).
 * It asserts nothing itself: `sqlite-write-group.test.ts` does. A process may trace itself only
 * with the right to, so it runs in a user namespace of its own, where it holds that right over
 * its own processes (where unprivileged user namespaces are allowed, under Yama's scopes 0–2):
 *
 *   unshare -Ur node --import tsx test/storage/write-group-harness.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openConnection } from '../../src/storage/sqlite/connection.js';
import { migrateSqlite } from '../../src/storage/sqlite/migrations.js';
import {
  prepareWriteGroup,
  type WriteAnswer,
  type WriteRequest,
} from '../../src/storage/sqlite/write-group.js';
import { failWrites } from '../support/failing-writes.js';

export interface WriteGroupFaultReport {
  /** Each write's error code, or `stored`, in the order sent, with its id. */
  whileFailing: { id: number; outcome: string }[];
  /** What the file held once the group was answered. */
  petsAfterFailure: number;
  recordsAfterFailure: number;
  /** The next group, on the same connection, with the writes going through again. */
  afterRepair: string[];
  petsAfterRepair: number;
}

const outcome = (answer: WriteAnswer) => ('error' in answer ? (answer.error.code ?? '') : 'stored');

const dir = mkdtempSync(path.join(tmpdir(), 'petstore-write-group-'));
try {
  const file = path.join(dir, 'petstore.db');
  const db = openConnection(file);
  migrateSqlite(db);
  // A cache of a few pages, so the group's pages spill to the WAL before its commit: each spill's
  // write fails, and SQLite, for an I/O error, undoes the whole transaction.
  db.pragma('cache_size = 10');
  const count = (table: string) =>
    db.prepare<[], number>(`SELECT count(*) FROM ${table}`).pluck().get() ?? -1;
  const group = prepareWriteGroup(db);
  const name = 'x'.repeat(8192);
  const requests: WriteRequest[] = Array.from({ length: 40 }, (_, i) => ({
    id: i + 1,
    operation:
      i % 2 === 0
        ? { kind: 'createPet', pet: { name, categoryId: 1 } }
        : {
            kind: 'createIdempotent',
            pet: { name, categoryId: 1 },
            request: {
              apiKeyId: 1,
              key: `key-${i}`,
              fingerprint: 'f',
              now: 1_800_000_000_000,
              expiresAt: 2e12,
            },
          },
  }));

  const failing = await failWrites(process.pid, [`${file}-wal`], 'EIO');
  let answers: WriteAnswer[];
  try {
    answers = group(requests);
  } finally {
    await failing.stop();
  }
  const report: WriteGroupFaultReport = {
    whileFailing: answers.map((answer) => ({ id: answer.id, outcome: outcome(answer) })),
    petsAfterFailure: count('pets'),
    recordsAfterFailure: count('idempotency_keys'),
    afterRepair: group([
      { id: 41, operation: { kind: 'createPet', pet: { name: 'A', categoryId: 1 } } },
    ]).map(outcome),
    petsAfterRepair: count('pets'),
  };
  db.close();
  process.stdout.write(`${JSON.stringify(report)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
