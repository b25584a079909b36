import type { Random } from '../time.js';
import type { ResolvedRetryOptions } from './options.js';

/**
 * The wait before retry number `retry` (1 for the first retry): exponential backoff with
 * "full jitter", a uniformly random wait between 0 and min(maxDelay, base × 2^(retry−1)).
 * Full jitter spreads the retries of many clients that failed together, which fixed or
 * "equal" jitter does not (AWS Architecture Blog, "Exponential Backoff And Jitter", 2015).
 *
 * @example
 * ```ts
 * backoffDelay(3, { baseDelayMs: 500, maxDelayMs: 30_000 }, () => 0.5); // 1000
 * ```
 */
export function backoffDelay(
  retry: number,
  options: Pick<ResolvedRetryOptions, 'baseDelayMs' | 'maxDelayMs'>,
  random: Random,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}
