import type pg from 'pg';

/** Resolves in the check phase of this turn of the event loop, after its I/O callbacks. */
export const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `work` on a pooled connection, as `pool.query` does: released when it settles, and
 * discarded rather than reused after an error (the connection may be broken). While checked out
 * the connection has an `error` listener, which the pool removes from connections it hands out:
 * without one, a connection lost mid-query would crash the process with an unhandled `error`.
 */
export async function withClient<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost = error;
  };
  client.on('error', onError);
  try {
    const result = await work(client);
    client.removeListener('error', onError);
    client.release(lost);
    return result;
  } catch (error) {
    client.removeListener('error', onError);
    client.release(lost ?? (error as Error));
    throw error;
  }
}
