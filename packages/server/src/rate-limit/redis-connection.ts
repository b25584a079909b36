import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface RedisConnectionOptions {
  url: string;
  logger: Pick<Logger, 'warn' | 'info'>;
  /** How long one command may take before it fails over to memory (ms); default 500. */
  commandTimeoutMs?: number;
}

/** A Redis client for the limiter, plus how to close it without reporting an outage. */
export interface RedisConnection {
  client: Redis;
  /** Settles on the first connection attempt: true once Redis is ready, false if unreachable. */
  connected: Promise<boolean>;
  /** Whether Redis answers now (false from the first failure until it is ready again). */
  reachable(): boolean;
  close(): Promise<void>;
}

/**
 * Opens the limiter's Redis connection so that a missing Redis never makes a request
 * wait: commands fail at once while disconnected (`enableOfflineQueue: false`) and after
 * `commandTimeoutMs` when Redis hangs; each failure falls back to the in-process counters.
 * ioredis keeps reconnecting in the background (at most a second apart).
 *
 * Logs once when Redis becomes unreachable (at start-up or later) and once when it is back,
 * not once per request.
 */
export async function openRedisConnection({
  url,
  logger,
  commandTimeoutMs = 500,
}: RedisConnectionOptions): Promise<RedisConnection> {
  // Loaded only when REDIS_URL is set: a server on in-process limits never pays for it.
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    enableOfflineQueue: false,
    // Commands issued in the same tick go out in one write: the ban lookup and both window
    // increments of a request travel together.
    enableAutoPipelining: true,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });

  let down = false;
  let closing = false;
  let settle: (ready: boolean) => void = () => {};
  const connected = new Promise<boolean>((resolve) => (settle = resolve));
  const wentDown = (err?: Error) => {
    settle(false);
    if (down || closing) return;
    down = true;
    logger.warn(
      { err },
      'Redis is unreachable: rate limits are counted in this process until it returns',
    );
  };
  client.on('error', wentDown);
  client.on('close', () => wentDown());
  client.on('ready', () => {
    settle(true);
    if (!down) return;
    down = false;
    logger.info('Redis is reachable again: rate limits are shared through it again');
  });

  return {
    client,
    connected,
    reachable: () => client.status === 'ready',
    async close() {
      closing = true;
      if (client.status === 'ready') await client.quit();
      else client.disconnect();
    },
  };
}
