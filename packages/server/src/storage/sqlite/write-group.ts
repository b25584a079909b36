import type { Database } from 'better-sqlite3';
import { prepareWrites, type WriteOperation } from './writes.js';

/** A write, numbered by the server so its answer finds its way back (sent in arrays). */
export interface WriteRequest {
  id: number;
  operation: WriteOperation;
}

/** The answer to one write: its value, or the error it failed with (as data). */
export type WriteAnswer =
  | { id: number; value: unknown }
  | { id: number; error: { name: string; message: string; code?: string } };

/** What the writer thread sends back for a group: each write's answer, and the group's size. */
export interface WriteAnswers {
  answers: WriteAnswer[];
  groupSize: number;
}

/**
 * Carries out a group of writes on `db` in one IMMEDIATE transaction, so one commit (one fsync)
 * makes them all durable, and answers each.
 *
 * A write that fails is undone alone: it is one statement, which SQLite undoes on its own when
 * it fails (ON CONFLICT ABORT, the default), leaving the transaction and the writes before it as
 * they were, or it opens a savepoint of its own (`writes.ts`). After some errors, though, SQLite
 * undoes the whole transaction: an I/O error always, a full disk or memory running out in a
 * statement that keeps no statement journal (https://www.sqlite.org/lang_transaction.html#response_to_errors_within_a_transaction).
 * The writes before it are then gone, and those after it would run outside any transaction,
 * each committed at once, and be answered as failed with the rest when the group's commit
 * fails. So once the transaction is gone, the group stops: every write of it fails with that
 * error and nothing of it is stored, as when the commit itself fails.
 */
export function prepareWriteGroup(db: Database): (requests: WriteRequest[]) => WriteAnswer[] {
  const perform = prepareWrites(db);
  const group = db.transaction((requests: WriteRequest[]): WriteAnswer[] =>
    requests.map(({ id, operation }) => {
      try {
        return { id, value: perform(operation) };
      } catch (error) {
        if (!db.inTransaction) throw error;
        return { id, error: asData(error) };
      }
    }),
  );
  return (requests) => {
    try {
      return group.immediate(requests);
    } catch (error) {
      // Nothing of the group was written: its BEGIN or its commit failed, or it was undone.
      return requests.map(({ id }) => ({ id, error: asData(error) }));
    }
  };
}

/** An error as data that crosses to the server's thread, its driver `code` kept. */
function asData(error: unknown): { name: string; message: string; code?: string } {
  const {
    name = 'Error',
    message = String(error),
    code,
  } = (error ?? {}) as {
    name?: string;
    message?: string;
    code?: unknown;
  };
  return { name, message, ...(typeof code === 'string' ? { code } : {}) };
}
