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

  /**
   * Milliseconds to wait before sending at time `now`: 0 unless a window is exhausted, else
   * until the last exhausted window resets. With the IETF fields that may be the day even
   * when `X-RateLimit-*` describe the minute (both used up: they describe the minute, whose
   * reset would only buy a 429 from the day).
   */
  waitMs(now: number): number {
    const last = this.#last;
    if (!last) return 0;
    const resets = last.windows
      .filter((window) => window.remaining === 0 && window.reset !== undefined)
      .map((window) => window.reset?.getTime() ?? now);
    if (last.remaining === 0) resets.push(last.reset.getTime());
    return Math.max(0, now, ...resets) - now;
  }
}
