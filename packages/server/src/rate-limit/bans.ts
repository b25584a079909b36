import type { BanPolicy } from './limiter.js';
import type { Counter } from './counters.js';

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
  /** Ban ends (Unix ms) this process has seen, by subject. */
  readonly #known = new Map<string, number>();

  constructor(strikes: Counter, bans: Counter, policy: BanPolicy) {
    this.#strikes = strikes;
    this.#bans = bans;
    this.#policy = policy;
  }

  /** Whether `subject` can be banned: API keys only, and only when bans are on. */
  applies(subject: string): boolean {
    return this.#policy.threshold > 0 && subject.startsWith('key:');
  }

  /** The end of a ban of `subject` this process already knows of, if still running. */
  knownUntil(subject: string, nowMs: number): number | undefined {
    const until = this.#known.get(subject);
    if (until === undefined) return undefined;
    if (until > nowMs) return until;
    this.#known.delete(subject);
    return undefined;
  }

  /** Reads the shared ban of `subject` (set by any instance); its end if still running. */
  async sharedUntil(subject: string, nowMs: number): Promise<number | undefined> {
    const stored = await this.#bans.get(subject);
    if (stored === null || stored.consumedPoints <= nowMs) return undefined;
    this.#known.set(subject, stored.consumedPoints);
    return stored.consumedPoints;
  }

  /**
   * Counts one `rate_limited` answer to `subject` in clock minute `minuteIndex`; when that
   * reaches the threshold, bans it and returns the ban's end.
   */
  async strike(subject: string, minuteIndex: number, nowMs: number): Promise<number | undefined> {
    const strikes = await this.#strikes.consume(`${subject}:${minuteIndex}`);
    if (strikes.consumedPoints < this.#policy.threshold) return undefined;
    const until = nowMs + this.#policy.seconds * 1000;
    this.#known.set(subject, until);
    await this.#bans.set(subject, until, this.#policy.seconds);
    return until;
  }
}
