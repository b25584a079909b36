import type { Clock, Sleep } from '../../src/time.js';

/**
 * A clock that only moves when the code under test sleeps: every `sleep(ms)` advances it
 * by `ms` at once and records the wait, so backoff arithmetic is asserted exactly.
 */
export function fakeTime(start = Date.parse('2030-01-01T00:00:00Z')) {
  let now = start;
  const sleeps: number[] = [];
  const clock: Clock = { now: () => now };
  const sleep: Sleep = async (ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    sleeps.push(ms);
    now += ms;
  };
  return {
    clock,
    sleep,
    sleeps,
    advance(ms: number) {
      now += ms;
    },
    get now() {
      return now;
    },
  };
}
