const DELTA_SECONDS = /^\d+$/;

/**
 * How long `Retry-After` asks to wait, in milliseconds from `now` (never negative), or
 * undefined when the header is absent or unreadable.
 *
 * RFC 9110 §10.2.3: the value is either delta-seconds (`120`) or an HTTP-date
 * (`Fri, 31 Dec 1999 23:59:59 GMT`). Our server sends delta-seconds; the date form is
 * honoured too because proxies and other deployments may send it.
 *
 * @example
 * ```ts
 * parseRetryAfter('2', Date.now()); // 2000
 * ```
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (DELTA_SECONDS.test(trimmed)) {
    const seconds = Number(trimmed);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : undefined;
  }
  // Only the IMF-fixdate shape (and the obsolete forms Date.parse also reads) is a date;
  // a bare number with a sign or a fraction is malformed, not a date.
  if (!/[A-Za-z]/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
