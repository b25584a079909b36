import type { Subject } from '../domain.js';
import {
  type Counted,
  type Counter,
  type CounterValue,
  isPending,
  subjectKey,
} from './counters.js';
import type { BanPolicy } from './limiter.js';

/**
 * The temporary ban of API keys that keep calling after a 429: `threshold` `rate_limited`
 * answers to one key within one clock minute ban it for `seconds`. The ban's end is kept
 * in the shared `bans` counter (so every instance on one Redis sees it) and, once seen,
 * in this process too, so a banned key's requests cost no store round trip at all.
 * Time is the injected clock's: a ban ends when `now` passes its stored end, whatever the
 * store's expiry (which only garbage-collects).
 */
export class KeyBans {
  readonly #strikes: Counter;
  readonly #bans: Counter;
  readonly #policy: BanPolicy;
  /** Ban ends (Unix ms) this process has seen, by subject key. */
  readonly #known = new Map<string, number>();

  constructor(strikes: Counter, bans: Counter, policy: BanPolicy) {
    this.#strikes = strikes;
    this.#bans = bans;
    this.#policy = policy;
  }

  /** Whether `subject` can be banned: API keys only, and only when bans are on. */
  applies(subject: Subject): boolean {
    return this.#policy.threshold > 0 && subject.kind === 'key';
  }

  /** The end of a ban of `subject` this process already knows of, if still running. */
  knownUntil(subject: Subject, nowMs: number): number | undefined {
    const key = subjectKey(subject);
    const until = this.#known.get(key);
    if (until === undefined) return undefined;
    if (until > nowMs) return until;
    this.#known.delete(key);
    return undefined;
  }

  /**
   * The end of a ban of `subject` in the shared store, if still running (and then known here
   * too). At once when the store is in this process.
   */
  sharedUntil(subject: Subject, nowMs: number): Counted<number | undefined> {
    const key = subjectKey(subject);
    const stored = this.#bans.get(key);
    return isPending(stored)
      ? stored.then((value) => this.#runningUntil(key, value, nowMs))
      : this.#runningUntil(key, stored, nowMs);
  }

  #runningUntil(key: string, stored: CounterValue | null, nowMs: number): number | undefined {
    if (stored === null || stored.consumedPoints <= nowMs) return undefined;
    this.#known.set(key, stored.consumedPoints);
    return stored.consumedPoints;
  }

  /**
   * Counts one `rate_limited` answer to `subject` in clock minute `minuteIndex`; when that
   * reaches the threshold, bans it and returns the ban's end.
   */
  async strike(subject: Subject, minuteIndex: number, nowMs: number): Promise<number | undefined> {
    const key = subjectKey(subject);
    const strikes = await this.#strikes.consume(`${key}:${minuteIndex}`);
    if (strikes.consumedPoints < this.#policy.threshold) return undefined;
    const until = nowMs + this.#policy.seconds * 1000;
    this.#known.set(key, until);
    await this.#bans.set(key, until, this.#policy.seconds);
    return until;
  }
}
