/**
 * The SQLite writer thread: the one connection that writes pets, committing in groups.
 *
 * Writes arrive as messages. While a commit runs (its fsync, with `synchronous = FULL`, is what
 * a write costs), the next writes queue up; they are then carried out together in one IMMEDIATE
 * transaction with one fsync, each undone alone if it fails (SQLite's own statement rollback,
 * or a savepoint), so that one failing write does not undo the others.
 * Every write is answered only after its commit is durable. Running here, the fsync never
 * blocks the server's event loop, and reads go on meanwhile (WAL).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection } from './connection.js';
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

const port = parentPort;
if (port === null) throw new Error('writer-thread.ts runs as a worker thread');
const { file } = workerData as { file: string };

const db = openConnection(file);
const perform = prepareWrites(db);

const asData = (error: unknown) => {
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
};

/**
 * Every write of the group in one transaction, each undone alone if it fails: a write is one
 * statement, which SQLite undoes on its own when it fails (ON CONFLICT ABORT, the default),
 * leaving the transaction and the writes before it as they were, or opens a savepoint of its own
 * (`writes.ts`).
 */
const group = db.transaction((requests: WriteRequest[]): WriteAnswer[] =>
  requests.map(({ id, operation }) => {
    try {
      return { id, value: perform(operation) };
    } catch (error) {
      return { id, error: asData(error) };
    }
  }),
);

let queue: WriteRequest[] = [];
let scheduled = false;
let closing = false;

function flush(): void {
  scheduled = false;
  const requests = queue;
  queue = [];
  let answers: WriteAnswer[];
  try {
    answers = group.immediate(requests);
  } catch (error) {
    // The commit itself failed (a full or read-only disk): nothing of the group was written.
    answers = requests.map(({ id }) => ({ id, error: asData(error) }));
  }
  port!.postMessage({ answers, groupSize: requests.length });
  if (closing && queue.length === 0) finish();
}

function finish(): void {
  db.close();
  port!.close();
}

port.on('message', (message: WriteRequest[] | 'close') => {
  if (message === 'close') {
    closing = true;
    if (!scheduled) finish();
    return;
  }
  queue.push(...message);
  if (!scheduled) {
    scheduled = true;
    // After the messages already waiting are read: they join this group.
    setImmediate(flush);
  }
});
