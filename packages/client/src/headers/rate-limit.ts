import { type BareItem, type Parameters, parseList, Token } from 'structured-headers';

/**
 * One window of the caller's quota, from the IETF fields `RateLimit-Policy` (its quota and
 * length) and `RateLimit` (what is left of it), matched by policy name. A field the response
 * lacks leaves its members undefined.
 */
export interface RateLimitWindow {
  /** The policy's name as the server gives it: `minute`, `day`. */
  policy: string;
  /** `q` of `RateLimit-Policy`: requests allowed in the window. */
  quota: number | undefined;
  /** `w` of `RateLimit-Policy`: the window's length in seconds. */
  windowSeconds: number | undefined;
  /** `r` of `RateLimit`: requests left in the current window. */
  remaining: number | undefined;
  /** When the current window resets: the time the response was read plus `t` of `RateLimit`. */
  reset: Date | undefined;
}

/**
 * The caller's rate-limit state. `limit`, `remaining` and `reset` describe the window with
 * the fewest requests left (from `X-RateLimit-*`, or else from the IETF fields); `windows`
 * lists every window the IETF fields describe (the minute and the day), in the server's order.
 */
export interface RateLimitInfo {
  /** The limit of the window described. */
  limit: number;
  /** Requests left in that window. */
  remaining: number;
  /** When that window resets (`X-RateLimit-Reset` is in Unix seconds). */
  reset: Date;
  /**
   * Every window of `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10);
   * empty when the response carries neither field.
   *
   * @example
   * ```ts
   * const day = rateLimit.windows.find((window) => window.policy === 'day');
   * ```
   */
  windows: RateLimitWindow[];
}

const NON_NEGATIVE_INTEGER = /^\d+$/;

function integerHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)?.trim();
  if (value === undefined || !NON_NEGATIVE_INTEGER.test(value)) return undefined;
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

function nonNegativeInteger(value: BareItem | undefined): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The members of a Structured Field List (RFC 9651) whose value names a policy: a String
 * (`"minute"`, as draft-10 writes it) or a Token (`minute`). Inner lists and other values are
 * skipped, and a field that is not a valid List at all counts as absent: a proxy or another
 * server's syntax must not break the client.
 */
function policyItems(field: string | null): Array<[string, Parameters]> {
  if (field === null) return [];
  let list;
  try {
    list = parseList(field.trim());
  } catch {
    return [];
  }
  const items: Array<[string, Parameters]> = [];
  for (const [value, parameters] of list) {
    if (typeof value === 'string') items.push([value, parameters]);
    else if (value instanceof Token) items.push([value.toString(), parameters]);
  }
  return items;
}

/**
 * The windows of `RateLimit-Policy` and `RateLimit`, in the order they first appear; `t` is
 * counted from `now` truncated to the second, as the server counts `X-RateLimit-Reset`.
 * Unknown parameters (`qu`, `pk`, …) and unknown policy names are kept or ignored, not errors.
 */
export function parseRateLimitWindows(headers: Headers, now: number): RateLimitWindow[] {
  const windows = new Map<string, RateLimitWindow>();
  const windowOf = (policy: string): RateLimitWindow => {
    let window = windows.get(policy);
    if (!window) {
      window = {
        policy,
        quota: undefined,
        windowSeconds: undefined,
        remaining: undefined,
        reset: undefined,
      };
      windows.set(policy, window);
    }
    return window;
  };
  for (const [policy, parameters] of policyItems(headers.get('RateLimit-Policy'))) {
    const window = windowOf(policy);
    window.quota = nonNegativeInteger(parameters.get('q'));
    window.windowSeconds = nonNegativeInteger(parameters.get('w'));
  }
  const second = Math.floor(now / 1000) * 1000;
  for (const [policy, parameters] of policyItems(headers.get('RateLimit'))) {
    const window = windowOf(policy);
    window.remaining = nonNegativeInteger(parameters.get('r'));
    const seconds = nonNegativeInteger(parameters.get('t'));
    window.reset = seconds === undefined ? undefined : new Date(second + seconds * 1000);
  }
  return [...windows.values()];
}

type Summary = Pick<RateLimitInfo, 'limit' | 'remaining' | 'reset'>;

/** The window with the fewest requests left (the first of a tie), among those fully known. */
function tightestWindow(windows: RateLimitWindow[]): Summary | undefined {
  let tightest: Summary | undefined;
  for (const { quota, remaining, reset } of windows) {
    if (quota === undefined || remaining === undefined || reset === undefined) continue;
    if (tightest === undefined || remaining < tightest.remaining) {
      tightest = { limit: quota, remaining, reset };
    }
  }
  return tightest;
}

/**
 * Reads the rate-limit state of a response: `X-RateLimit-Limit`, `-Remaining` and `-Reset`,
 * and the IETF fields `RateLimit-Policy` and `RateLimit` (draft-10). Either set is enough:
 * without the `X-RateLimit-*` trio (all three present non-negative integers), `limit`,
 * `remaining` and `reset` come from the tightest window of the IETF fields. Undefined when
 * neither set says that much (a proxy may strip them), so callers never see half a state.
 *
 * @param now when the response was received (ms), for the `t` of `RateLimit`; default now.
 * @example
 * ```ts
 * const info = parseRateLimit(response.headers);
 * if (info && info.remaining === 0) console.log(`wait until ${info.reset.toISOString()}`);
 * ```
 */
export function parseRateLimit(headers: Headers, now = Date.now()): RateLimitInfo | undefined {
  const windows = parseRateLimitWindows(headers, now);
  const limit = integerHeader(headers, 'X-RateLimit-Limit');
  const remaining = integerHeader(headers, 'X-RateLimit-Remaining');
  const resetSeconds = integerHeader(headers, 'X-RateLimit-Reset');
  const summary =
    limit === undefined || remaining === undefined || resetSeconds === undefined
      ? tightestWindow(windows)
      : { limit, remaining, reset: new Date(resetSeconds * 1000) };
  return summary && { ...summary, windows };
}
