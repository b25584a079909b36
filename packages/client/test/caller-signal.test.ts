import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { followCallerSignal, withCallSignal } from '../src/caller-signal.js';

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('followCallerSignal', () => {
  it('adds one listener to the caller’s signal however many calls follow it, and removes it after the last', () => {
    const caller = new AbortController().signal;
    const calls = Array.from({ length: 50 }, () => followCallerSignal(caller));
    expect(abortListeners(caller)).toBe(1);

    for (const call of calls.slice(1)) call.release();
    calls[1]?.release(); // released twice: the first call still follows
    expect(abortListeners(caller)).toBe(1);
    calls[0]?.release();
    expect(abortListeners(caller)).toBe(0);
    expect(calls.every((call) => call.signal?.aborted === false)).toBe(true);
  });

  it('aborts every call in flight with the caller’s reason, and none released before', () => {
    const controller = new AbortController();
    const released = followCallerSignal(controller.signal);
    released.release();
    const inFlight = [followCallerSignal(controller.signal), followCallerSignal(controller.signal)];
    const reason = new Error('gave up');

    controller.abort(reason);

    expect(inFlight.map((call) => call.signal?.reason)).toEqual([reason, reason]);
    expect(released.signal?.aborted).toBe(false);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('gives a call on an aborted signal an aborted signal of its own, adding no listener', () => {
    const reason = new Error('too late');
    const caller = AbortSignal.abort(reason);
    const call = followCallerSignal(caller);
    expect(call.signal?.reason).toBe(reason);
    expect(abortListeners(caller)).toBe(0);
  });

  it('gives no signal to a call without one', () => {
    expect(followCallerSignal(undefined).signal).toBeUndefined();
  });
});

describe('withCallSignal', () => {
  it('releases the call’s signal when the call settles, resolved or rejected', async () => {
    const caller = new AbortController().signal;
    let seen: AbortSignal | undefined;
    await withCallSignal(caller, async ({ signal }) => {
      seen = signal;
      expect(abortListeners(caller)).toBe(1);
    });
    expect(seen).not.toBe(caller);
    expect(abortListeners(caller)).toBe(0);

    await expect(
      withCallSignal(caller, () => Promise.reject(new Error('refused'))),
    ).rejects.toThrow('refused');
    expect(abortListeners(caller)).toBe(0);
  });

  it('passes no signal option when the caller gave none', async () => {
    expect(await withCallSignal(undefined, async (init) => init)).toEqual({});
  });
});
