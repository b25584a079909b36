import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { InFlightTable } from './in-flight-table.js';
import type { WriteAnswers, WriteRequest } from './write-group.js';
import { prepareWrites, type WriteOperation, type WriteResults } from './writes.js';

/** Where the SQLite adapter's pet writes go. */
export interface SqliteWriter {
  write<Kind extends WriteOperation['kind']>(
    operation: Extract<WriteOperation, { kind: Kind }>,
  ): Promise<WriteResults[Kind]>;
  close(): Promise<void>;
}

/** Writes on the reading connection itself: for `:memory:`, which no other connection sees. */
export function inlineWriter(db: Database): SqliteWriter {
  const perform = prepareWrites(db);
  const one = db.transaction((operation: WriteOperation) => perform(operation));
  return {
    write: async (operation) => one.immediate(operation) as never,
    async close() {},
  };
}

/**
 * Writes on the writer thread (`writer-thread.ts`), which commits them in groups, one fsync per
 * group, off the event loop. A write resolves once its group's commit is durable; its error
 * comes back with the driver's `code`, so the adapter tells "unavailable" from a bug as usual.
 */
export function threadWriter(
  file: string,
  onGroupCommitted?: ((size: number) => void) | undefined,
): SqliteWriter {
  const worker = startWorker(file);
  // The writes sent and not yet answered, by id (not a Map: see InFlightTable).
  const pending = new InFlightTable<{
    resolve: (value: never) => void;
    reject: (error: Error) => void;
  }>();
  let failure: Error | undefined;

  // Writes of one turn of the event loop cross to the thread in one message at the end of that
  // turn (a postMessage, a structured clone and a wake-up of the thread, costs more than the
  // write it carries). They go even while the thread is committing an earlier group: it reads
  // them as soon as that commit is done and commits them next, so no write waits for the
  // answer's round trip through this thread (waiting, as before, kept every request alive longer
  // and cost about 3 % of a create's CPU, measured). Both ways, a message is one JSON text,
  // not objects for the structured clone, which counted more instructions on both threads
  // (Node.js 24.21.0 under callgrind, 29 November 2026: creates 323 → 314 thousand each, the
  // writer thread's part 71 → 66 thousand). All a write and its answer hold is JSON: names,
  // numbers, ISO dates, error codes; a value left undefined (a probe's) is left out.
  let outbox: WriteRequest[] = [];
  const send = () => {
    const requests = outbox;
    outbox = [];
    worker.postMessage(JSON.stringify(requests));
  };

  worker.on('message', (text: string) => {
    const { answers, groupSize } = JSON.parse(text) as WriteAnswers;
    onGroupCommitted?.(groupSize);
    for (const answer of answers) {
      const waiting = pending.take(answer.id);
      if ('error' in answer) {
        const error = Object.assign(new Error(answer.error.message), answer.error);
        waiting?.reject(error);
      } else {
        waiting?.resolve(answer.value as never);
      }
    }
  });
  const fail = (error: Error) => {
    failure = error;
    for (const waiting of pending.takeAll()) waiting.reject(error);
  };
  worker.on('error', fail);
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      if (pending.size > 0 || code !== 0)
        fail(new Error(`the SQLite writer thread exited (${code})`));
      resolve();
    }),
  );

  return {
    write(operation) {
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        const id = pending.add({ resolve, reject });
        if (outbox.push({ id, operation }) === 1) setImmediate(send);
      });
    },
    async close() {
      if (outbox.length > 0) send();
      worker.postMessage('close');
      await exited;
    },
  };
}

/**
 * Starts the writer thread. Built, it is `writer-thread.js`; run from source (tests, the dev
 * loop), it is TypeScript, which a worker loads through tsx's loader, registered first.
 */
function startWorker(file: string): Worker {
  const source = new URL(
    import.meta.url.endsWith('.ts') ? './writer-thread.ts' : './writer-thread.js',
    import.meta.url,
  ).href;
  const boot = import.meta.url.endsWith('.ts')
    ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`
    : `import(${JSON.stringify(source)})`;
  return new Worker(boot, { eval: true, workerData: { file } });
}
