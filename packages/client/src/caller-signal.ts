/** The calls in flight on one caller's signal, and the one listener that aborts them all. */
interface Followers {
  controllers: Set<AbortController>;
  onAbort: () => void;
}

const followersOf = new WeakMap<AbortSignal, Followers>();

/** A signal of one call's own that aborts when the caller's does, until `release()`. */
export interface CallSignal {
  /** Undefined when the caller passed no signal. */
  signal: AbortSignal | undefined;
  /** The call settled: stop following the caller's signal. Idempotent. */
  release(): void;
}

/**
 * A signal for one call that follows `caller` (aborts with its reason), so that nothing the
 * call builds on it (every `new Request(…, { signal })` adds an abort listener that goes only
 * when the request is garbage-collected) lands on the caller's signal. However many calls
 * share one long-lived signal, it carries a single abort listener of ours while any of them
 * is in flight, and none once the last has released.
 *
 * (`AbortSignal.any([caller])` would add no listener either, but on Node.js 22 a source signal
 * keeps an entry for every signal ever derived from it until it aborts: 100,000 derived signals,
 * collected, left 100,000 entries on 22.23.3, as on 20.20.2, and none on 24.21.0. The client
 * supports Node.js 22.)
 *
 * @example
 * ```ts
 * const call = followCallerSignal(options.signal);
 * try {
 *   return await raw.GET('/pets', { signal: call.signal });
 * } finally {
 *   call.release();
 * }
 * ```
 */
export function followCallerSignal(caller: AbortSignal | undefined): CallSignal {
  if (caller === undefined) return { signal: undefined, release() {} };
  const controller = new AbortController();
  if (caller.aborted) {
    controller.abort(caller.reason);
    return { signal: controller.signal, release() {} };
  }
  let followers = followersOf.get(caller);
  if (followers === undefined) {
    const controllers = new Set<AbortController>();
    const onAbort = () => {
      followersOf.delete(caller);
      for (const follower of controllers) follower.abort(caller.reason);
      controllers.clear();
    };
    followers = { controllers, onAbort };
    followersOf.set(caller, followers);
    caller.addEventListener('abort', onAbort, { once: true });
  }
  const { controllers, onAbort } = followers;
  controllers.add(controller);
  return {
    signal: controller.signal,
    release() {
      if (!controllers.delete(controller) || controllers.size > 0) return;
      caller.removeEventListener('abort', onAbort);
      followersOf.delete(caller);
    },
  };
}

/**
 * Runs one call with a signal of its own that follows `caller` (`followCallerSignal`), given
 * to `run` as request options (`{ signal }`, or `{}` without one), and released when the call
 * settles.
 */
export async function withCallSignal<T>(
  caller: AbortSignal | undefined,
  run: (init: { signal?: AbortSignal }) => Promise<T>,
): Promise<T> {
  const call = followCallerSignal(caller);
  try {
    return await run(call.signal ? { signal: call.signal } : {});
  } finally {
    call.release();
  }
}
