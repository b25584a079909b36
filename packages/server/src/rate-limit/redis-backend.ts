import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Clock } from '../clock.js';
import {
  type Counter,
  type CounterOptions,
  counterOptions,
  type CounterWrapper,
  defaultKeyPrefix,
} from './counters.js';
import { type BanPolicy, defaultBanPolicy, type RateLimiter } from './limiter.js';
import { openRedisConnection, type RedisConnectionOptions } from './redis-connection.js';
import { DEFAULT_MAX_SUBJECTS, memoryCounters } from './memory-backend.js';
import { createWindowedLimiter } from './windowed-limiter.js';

export interface RedisRateLimiterOptions extends RedisConnectionOptions {
  clock: Clock;
  /** Defaults to `defaultBanPolicy`. */
  ban?: BanPolicy;
  /** Prefix of every key this limiter writes; instances that share limits share it. */
  keyPrefix?: string;
  /**
   * While Redis is away: the most API keys, and separately the most client addresses, counted
   * per window in this process (default 100,000 each, as the in-memory backend).
   */
  maxSubjects?: number;
  /** Wraps each counter kept in Redis (not the in-process ones it fails over to): tracing. */
  wrapCounter?: CounterWrapper | undefined;
}

/**
 * The shared backend (`REDIS_URL`): counts and bans live in Redis, so any number of
 * instances on one Redis enforce one limit. Each count is rate-limiter-flexible's atomic
 * `RateLimiterRedis` increment (a Lua script: increment and expiry in one step).
 *
 * Resolves once the first connection attempt settles. When Redis is unreachable (or a command
 * fails or times out), each count goes to the in-memory backend's counters instead
 * (`memoryCounters`, bounded like that backend): the service keeps answering and keeps
 * limiting, each instance on its own, and goes back to Redis as soon as Redis answers again
 * (counts made in memory meanwhile are not copied). Availability wins over exactness here: a
 * rate limiter that takes the API down with it would do more harm than a short outage of
 * exact shared counting.
 *
 * @example
 * ```ts
 * const limiter = await createRedisRateLimiter({ url: 'redis://127.0.0.1:6379', clock, logger });
 * ```
 */
export async function createRedisRateLimiter({
  clock,
  ban = defaultBanPolicy,
  keyPrefix = defaultKeyPrefix,
  maxSubjects = DEFAULT_MAX_SUBJECTS,
  wrapCounter = (_name, counter) => counter,
  ...connection
}: RedisRateLimiterOptions): Promise<RateLimiter> {
  const { client, connected, close, reachable } = await openRedisConnection(connection);
  // Start counting in Redis from the first request when it is there; when it is not, the
  // outage is logged and the service starts on the in-process counters.
  await connected;
  const options = counterOptions(keyPrefix);
  const inRedis = (opts: CounterOptions) =>
    new RateLimiterRedis({
      ...opts,
      storeClient: client,
      // Fail over at once instead of queueing while the connection is down.
      rejectIfRedisNotReady: true,
    });
  const inMemory = memoryCounters(maxSubjects);
  const ready = () => client.status === 'ready';
  return createWindowedLimiter(
    {
      minute: failover(wrapCounter('minute', inRedis(options.minute)), inMemory.minute, ready),
      day: failover(wrapCounter('day', inRedis(options.day)), inMemory.day, ready),
      strikes: failover(wrapCounter('strikes', inRedis(options.strikes)), inMemory.strikes, ready),
      bans: failover(
        wrapCounter('bans', withPlainGet(inRedis(options.bans), client)),
        inMemory.bans,
        ready,
      ),
    },
    { clock, ban, close, health: () => ({ backend: 'redis', reachable: reachable() }) },
  );
}

/**
 * `primary` (Redis) while the connection is ready and the command succeeds, else `fallback`
 * (this process's counters): what rate-limiter-flexible's `insuranceLimiter` does, but with
 * counters that stay bounded however many addresses a long outage sees (its
 * `RateLimiterMemory` keeps every counter, with a timer each, until it expires).
 */
function failover(primary: Counter, fallback: Counter, ready: () => boolean): Counter {
  const either =
    <Args extends unknown[], Result>(
      call: (counter: Counter, ...args: Args) => Result | Promise<Result>,
    ): ((...args: Args) => Promise<Result>) =>
    async (...args) => {
      if (!ready()) return call(fallback, ...args);
      try {
        return await call(primary, ...args);
      } catch {
        return call(fallback, ...args);
      }
    };
  return {
    consume: either((counter, key: string, points?: number) => counter.consume(key, points)),
    reward: either((counter, key: string, points?: number) => counter.reward(key, points)),
    get: either((counter, key: string) => counter.get(key)),
    set: either((counter, key: string, points: number, durationSeconds: number) =>
      counter.set(key, points, durationSeconds),
    ),
  };
}

/**
 * The ban counter with a lighter read. Every request of a key looks its ban up, and the
 * library's `get()` reads value and TTL in a MULTI transaction, which measured about three
 * times slower than a plain GET pipelined with the request's two increments; a ban needs
 * only its value (the end time).
 */
function withPlainGet(bans: RateLimiterRedis, client: Redis): Counter {
  return {
    consume: bans.consume.bind(bans),
    reward: bans.reward.bind(bans),
    set: bans.set.bind(bans),
    async get(key) {
      const value = await client.get(bans.getKey(key));
      return value === null ? null : new RateLimiterRes(0, 0, Number(value));
    },
  };
}
