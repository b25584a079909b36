import type pg from 'pg';

/** The channel the `api_keys` trigger notifies (migration 4). */
export const KEY_CHANGES_CHANNEL = 'petstore_api_keys';

export interface KeyChanges {
  /** Moves on every notification; undefined while not listening (changes could be missed). */
  revision(): number | undefined;
  /** This process changed a key: move the revision now, not when its notification arrives. */
  changed(): void;
  close(): Promise<void>;
}

/**
 * LISTENs on `petstore_api_keys` on a connection of its own (outside the pool), so that a key
 * created, revoked or rotated by any process — another instance, the keys CLI — reaches every
 * server at commit. While the connection is down the revision is unknown (a cache must not
 * trust itself then); it reconnects a second later.
 */
export function listenForKeyChanges(
  { Client }: Pick<typeof pg, 'Client'>,
  connectionString: string,
  onError: (error: Error) => void,
): KeyChanges {
  let counter = 0;
  let listening = false;
  let closed = false;
  let client: InstanceType<typeof Client> | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = () => {
    const current = new Client({ connectionString, application_name: 'petstore-keys' });
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
    current
      .connect()
      .then(() => current.query(`listen ${KEY_CHANGES_CHANNEL}`))
      .then(() => {
        // Whatever changed before now is unknown to the cache: start a new revision.
        counter += 1;
        listening = true;
      })
      .catch(lost);
  };
  connect();

  return {
    revision: () => (listening ? counter : undefined),
    changed() {
      counter += 1;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      listening = false;
      await current?.end().catch(() => undefined);
    },
  };
}
