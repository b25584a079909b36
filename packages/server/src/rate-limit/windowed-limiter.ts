import type { Clock } from '../clock.js';
import type { Quota, Subject } from '../domain.js';
import { KeyBans } from './bans.js';
import {
  type Counted,
  type Counters,
  type CounterValue,
  isPending,
  subjectKey,
} from './counters.js';
import {
  bindingWindow,
  headerWindow,
  secondsUntil,
  windowIndices,
  windowStates,
} from './fixed-windows.js';
import type { BanPolicy, LimitDecision, LimiterHealth, RateLimiter } from './limiter.js';

export interface WindowedLimiterOptions {
  /** Decides which minute and day a request falls in, and when bans end. */
  clock: Clock;
  ban: BanPolicy;
  /** Releases what the backend holds (its Redis connection). */
  close: () => Promise<void>;
  /** Where the counts live, and whether that is reachable now. */
  health: () => LimiterHealth;
}

/**
 * The rate limiter both backends share: a per-minute and a per-day fixed window per
 * subject, counted by `counters` (rate-limiter-flexible limiters, in memory or in Redis),
 * plus the temporary ban of keys. Only where the counts live differs between backends.
 *
 * Every request is counted in both windows at once (with Redis: one pipelined round trip
 * together with the ban lookup). A refused request is then taken back out of both (the
 * contract: a rejected request does not count against the quota), so the counts of
 * concurrent requests stay exact: the first `perMinute` increments of a window are the ones
 * allowed, whatever instance made them.
 */
export function createWindowedLimiter(
  counters: Counters,
  { clock, ban, close, health }: WindowedLimiterOptions,
): RateLimiter {
  const { minute, day } = counters;
  const bans = new KeyBans(counters.strikes, counters.bans, ban);

  /**
   * The decision once the counts are in: allowed, or refused (and then taken back out of both
   * counts, with a strike towards a ban). Only a refusal waits on the counters again.
   */
  function decide(
    subject: Subject,
    quota: Quota,
    now: number,
    minuteKey: string,
    dayKey: string,
    [bannedUntil, minuteCount, dayCount]: [number | undefined, CounterValue, CounterValue],
  ): Counted<LimitDecision> {
    if (bannedUntil !== undefined) {
      return Promise.all([minute.reward(minuteKey), day.reward(dayKey)]).then(() =>
        banned(quota, bannedUntil, now),
      );
    }
    const dayExceeded = dayCount.consumedPoints > quota.perDay;
    if (!dayExceeded && minuteCount.consumedPoints <= quota.perMinute) {
      const windows = windowStates(quota, now, minuteCount.consumedPoints, dayCount.consumedPoints);
      return { allowed: true, window: headerWindow(windows), windows };
    }
    return refuse(subject, quota, now, minuteKey, dayKey, dayExceeded, minuteCount, dayCount);
  }

  async function refuse(
    subject: Subject,
    quota: Quota,
    now: number,
    minuteKey: string,
    dayKey: string,
    dayExceeded: boolean,
    minuteCount: CounterValue,
    dayCount: CounterValue,
  ): Promise<LimitDecision> {
    await Promise.all([
      minute.reward(minuteKey),
      day.reward(dayKey),
      bans.applies(subject) ? bans.strike(subject, windowIndices(now).minute, now) : undefined,
    ]);
    // The refused request was taken back out of both counts.
    const windows = windowStates(
      quota,
      now,
      minuteCount.consumedPoints - 1,
      dayCount.consumedPoints - 1,
    );
    const window = bindingWindow(windows, dayExceeded);
    return {
      allowed: false,
      code: 'rate_limited',
      window: { ...window, remaining: 0 },
      windows,
      retryAfterSeconds: secondsUntil(window.resetSeconds, now),
    };
  }

  return {
    consume(subject: Subject, quota: Quota): Counted<LimitDecision> {
      const now = clock.now();
      const bannable = bans.applies(subject);
      if (bannable) {
        const until = bans.knownUntil(subject, now);
        if (until !== undefined) return banned(quota, until, now);
      }

      const at = windowIndices(now);
      const key = subjectKey(subject);
      const minuteKey = `${key}:${at.minute}`;
      const dayKey = `${key}:${at.day}`;
      const bannedUntil = bannable ? bans.sharedUntil(subject, now) : undefined;
      const minuteCount = minute.consume(minuteKey);
      const dayCount = day.consume(dayKey);
      // In-process counters answer at once, and so does the decision (no promise per request).
      if (isPending(bannedUntil) || isPending(minuteCount) || isPending(dayCount)) {
        return Promise.all([bannedUntil, minuteCount, dayCount]).then((counts) =>
          decide(subject, quota, now, minuteKey, dayKey, counts),
        );
      }
      return decide(subject, quota, now, minuteKey, dayKey, [bannedUntil, minuteCount, dayCount]);
    },
    health,
    close,
  };
}

/**
 * The answer to a banned key: 429 `key_banned` until the ban ends. The X-RateLimit-* headers
 * describe the ban (reset at its end); in the IETF fields nothing remains of either window.
 */
function banned(quota: Quota, untilMs: number, nowMs: number): LimitDecision {
  const resetSeconds = Math.ceil(untilMs / 1000);
  return {
    allowed: false,
    code: 'key_banned',
    window: {
      limit: quota.perMinute,
      remaining: 0,
      resetSeconds,
      secondsToReset: resetSeconds - Math.floor(nowMs / 1000),
    },
    windows: windowStates(quota, nowMs, quota.perMinute, quota.perDay),
    retryAfterSeconds: secondsUntil(untilMs / 1000, nowMs),
  };
}
