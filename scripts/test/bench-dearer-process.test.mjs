// The rule that measures a round again when a process in it was dearer
// (scripts/bench/dearer-process.mjs), on windows made up here.
import { describe, expect, it } from 'vitest';
import { DEARER, dearerRound, processFactors } from '../bench/dearer-process.mjs';

/** Windows of one data set: `costs[target][scenario]` lists CPU per request by round. */
const windows = (costs) =>
  Object.entries(costs).flatMap(([target, byScenario]) =>
    Object.entries(byScenario).flatMap(([scenario, perRound]) =>
      perRound.map((cpuPerRequestUs, i) => ({ target, scenario, round: i + 1, cpuPerRequestUs })),
    ),
  );

describe('bench dearer process', () => {
  it('finds nothing when every round is within the usual spread', () => {
    const steady = windows({
      ours: { 'list-20': [99, 104, 110], create: [150, 147, 160] },
      naive: { 'list-20': [107, 100, 112], create: [110, 103, 107] },
    });
    expect(dearerRound(steady)).toBeNull();
    expect(Math.max(...processFactors(steady).map((p) => p.factor))).toBeLessThan(1 + DEARER);
  });

  it("names the round of a process that cost 1.6–1.75× in every scenario (the naive stack's, 26 November)", () => {
    const found = dearerRound(
      windows({
        ours: { 'list-20': [100, 99, 101], get: [95, 93, 96], create: [147, 151, 157] },
        naive: { 'list-20': [106, 168, 107], get: [96, 151, 99], create: [107, 187, 103] },
      }),
    );
    expect(found).toEqual({ target: 'naive', round: 2, factor: expect.closeTo(1.585, 2) });
  });

  it('leaves a process alone when only one of its windows was dear (the median over scenarios decides)', () => {
    expect(
      dearerRound(
        windows({
          ours: { 'list-20': [100, 99, 101], get: [95, 160, 96], create: [147, 151, 157] },
        }),
      ),
    ).toBeNull();
  });

  it('works with two rounds, against the cheaper one', () => {
    expect(dearerRound(windows({ ours: { 'list-20': [200, 105] } }))).toEqual({
      target: 'ours',
      round: 1,
      factor: expect.closeTo(1.9, 2),
    });
  });

  it('has nothing to compare in one round, and skips windows without a figure', () => {
    expect(dearerRound(windows({ ours: { 'list-20': [300] } }))).toBeNull();
    expect(dearerRound(windows({ ours: { 'list-20': [null, 100, 101] } }))).toBeNull();
  });

  it('picks the dearest first when two rounds were dear', () => {
    const found = dearerRound(windows({ ours: { get: [100, 140, 190] } }));
    expect(found).toMatchObject({ round: 3, factor: 1.9 });
  });
});
