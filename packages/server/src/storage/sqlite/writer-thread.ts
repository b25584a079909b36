/**
 * The SQLite writer thread: the one connection that writes pets, committing in groups.
 *
 * Writes arrive as messages. While a commit runs (its fsync, with `synchronous = FULL`, is what
 * a write costs), the next writes queue up; they are then carried out together in one IMMEDIATE
 * transaction with one fsync (`write-group.ts`), a failing write undone alone where SQLite
 * allows, so that it does not undo the others. Every write is answered only after its commit
 * is durable. Running here, the fsync never blocks the server's event loop, and reads go on
 * meanwhile (WAL).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection } from './connection.js';
import { prepareWriteGroup, type WriteAnswers, type WriteRequest } from './write-group.js';

const port = parentPort;
if (port === null) throw new Error('writer-thread.ts runs as a worker thread');
const { file } = workerData as { file: string };

const db = openConnection(file);
const writeGroup = prepareWriteGroup(db);

let queue: WriteRequest[] = [];
let scheduled = false;
let closing = false;

function flush(): void {
  scheduled = false;
  const requests = queue;
  queue = [];
  const answers: WriteAnswers = { answers: writeGroup(requests), groupSize: requests.length };
  port!.postMessage(JSON.stringify(answers));
  if (closing && queue.length === 0) finish();
}

function finish(): void {
  db.close();
  port!.close();
}

port.on('message', (message: string) => {
  if (message === 'close') {
    closing = true;
    if (!scheduled) finish();
    return;
  }
  // One by one: spread into `push`, a message of more than about 500 thousand writes (one
  // turn's, from a caller that does not await them) overflowed the thread's stack.
  for (const request of JSON.parse(message) as WriteRequest[]) queue.push(request);
  if (!scheduled) {
    scheduled = true;
    // After the messages already waiting are read: they join this group.
    setImmediate(flush);
  }
});
