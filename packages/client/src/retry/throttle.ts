import type { RateLimitInfo } from '../headers/rate-limit.js';

/**
 * Proactive throttling: remembers the last rate-limit state the server reported and,
 * while it says no request is left, tells how long to hold the next one back — so the
 * client waits for the window to reset instead of collecting 429s (which, repeated, get
 * the key banned).
 */
export class RateLimitTracker {
  #last: RateLimitInfo | undefined;

  /** Records the state a response reported. */
  observe(info: RateLimitInfo | undefined): void {
    if (info) this.#last = info;
  }

  /** The last state reported, if any. */
  get last(): RateLimitInfo | undefined {
    return this.#last;
  }

  /** Milliseconds to wait before sending at time `now`: 0 unless the window is exhausted. */
  waitMs(now: number): number {
    const last = this.#last;
    if (!last || last.remaining > 0) return 0;
    return Math.max(0, last.reset.getTime() - now);
  }
}
