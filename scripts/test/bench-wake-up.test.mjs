// The wake-up figure of the benchmark (scripts/bench/wake-up.mjs): two real processes passing a
// byte through named pipes. Its timing is only checked to be a number.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { roundTrip } from '../bench/wake-up.mjs';

const children = () =>
  execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('wake-up.mjs'));

describe('the wake-up round trip', () => {
  it('times round trips between two processes and leaves its pipes and processes behind it', async () => {
    const figure = await roundTrip({ from: 0, to: 0, roundTrips: 500 });
    expect(figure).toEqual({ roundTripUs: expect.any(Number), senderCpuUs: expect.any(Number) });
    expect(figure.roundTripUs).toBeGreaterThan(0);
    expect(children()).toEqual([]);
  });

  it('fails, stopping the other end, when one end cannot start (no such core)', async () => {
    await expect(roundTrip({ from: 0, to: 4096, roundTrips: 500 })).rejects.toThrow(
      /wake-up pong ended/,
    );
    expect(children()).toEqual([]);
  }, 20_000);
});
