import type pg from 'pg';

/** The channel the `api_keys` trigger notifies (migration 4). */
export const KEY_CHANGES_CHANNEL = 'petstore_api_keys';

/** The `application_name` of the listening connection (as `pg_stat_activity` shows it). */
export const KEY_CHANGES_APPLICATION_NAME = 'petstore-keys';

export interface KeyChanges {
  /**
   * Moves on every notification; undefined while not listening (changes could be missed).
   * The first call starts listening.
   */
  revision(): number | undefined;
  /** This process changed a key: move the revision now, not when its notification arrives. */
  changed(): void;
  /** Stops listening; a connection still logging in is let finish its login, then closed. */
  close(): Promise<void>;
}

/**
 * LISTENs on `petstore_api_keys` on a connection of its own (outside the pool), so that a key
 * created, revoked or rotated by any process — another instance, the keys CLI — reaches every
 * server at commit. While the connection is down the revision is unknown (a cache must not
 * trust itself then); it reconnects a second later.
 *
 * The connection opens on the first `revision()`, the question only a cache of key lookups
 * asks: a process that never asks (the keys CLI, a migration) never opens it. And `close()`
 * waits for a login in progress: ending a connection mid-login sends PostgreSQL a Terminate
 * where it expects the next login message, and it logs a FATAL ("expected SASL response, got
 * message type 88") or, before the startup packet, "invalid length of startup packet".
 */
export function listenForKeyChanges(
  { Client }: Pick<typeof pg, 'Client'>,
  connectionString: string,
  onError: (error: Error) => void,
): KeyChanges {
  let counter = 0;
  let started = false;
  let listening = false;
  let closed = false;
  let client: InstanceType<typeof Client> | undefined;
  let login: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = () => {
    if (closed) return;
    const current = new Client({
      connectionString,
      application_name: KEY_CHANGES_APPLICATION_NAME,
      // As the pool's: a login that hangs (an unreachable host) gives up, so close() does too.
      connectionTimeoutMillis: 5_000,
    });
    client = current;
    const lost = (error?: Error) => {
      if (client !== current) return;
      listening = false;
      client = undefined;
      current.end().catch(() => undefined);
      if (error) onError(error);
      if (!closed) {
        retry = setTimeout(connect, 1_000);
        retry.unref();
      }
    };
    current.on('notification', () => {
      counter += 1;
    });
    current.on('error', lost);
    current.on('end', () => lost());
    login = current
      .connect()
      .then(() => current.query(`listen ${KEY_CHANGES_CHANNEL}`))
      .then(() => {
        // Whatever changed before now is unknown to the cache: start a new revision.
        counter += 1;
        listening = true;
      })
      .catch(lost);
  };

  return {
    revision() {
      if (!started) {
        started = true;
        connect();
      }
      return listening ? counter : undefined;
    },
    changed() {
      counter += 1;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await login;
      const current = client;
      client = undefined;
      listening = false;
      await current?.end().catch(() => undefined);
    },
  };
}
