import type pg from 'pg';
import { turnEnd, withClient } from './pooled-connection.js';

/**
 * Reads that share one query. A read is sent at the end of the event loop's turn that asked
 * it (`setImmediate`), then when the pool has a connection for it; an identical read (the same
 * key) asked before it is sent joins it. One round trip answers them all, and all get the same
 * result, which callers must therefore not change.
 *
 * It never serves an older state than a read of its own would: a read joins only a query not
 * yet sent, so that query leaves after every request it answers has arrived, and sees whatever
 * was committed before any of them. Under load, the requests of one turn are many: many
 * requests for a popular read (the first page, a pet everyone asks for) cost one query instead
 * of one each. A read waits for the rest of its turn: the other requests read with it.
 *
 * @example
 * ```ts
 * const read = sharedReads(pool);
 * const rows = await read(`pet ${id}`, (client) => client.query(getPet(id)));
 * ```
 */
export function sharedReads(
  pool: pg.Pool,
): <T>(key: string, read: (client: pg.PoolClient) => Promise<T>) => Promise<T> {
  /** Reads not yet sent, by key. */
  const waiting = new Map<string, Promise<unknown>>();
  return <T>(key: string, read: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const joined = waiting.get(key);
    if (joined !== undefined) return joined as Promise<T>;
    const shared: Promise<T> = turnEnd().then(() =>
      withClient(pool, (client) => {
        // The query is written to the socket within this call (pg writes at once to a
        // connection that is ready): an identical read asked from now on asks again.
        leave();
        return read(client);
      }),
    );
    function leave() {
      if (waiting.get(key) === shared) waiting.delete(key);
    }
    waiting.set(key, shared);
    // A pool that could not hand out a connection fails every joined read; the next asks anew.
    shared.catch(leave);
    return shared;
  };
}
