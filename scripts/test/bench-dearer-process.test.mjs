// The rule that measures a round again when a process in it was dearer
// (scripts/bench/dearer-process.mjs), on windows made up here.
import { describe, expect, it } from 'vitest';
import {
  DEARER,
  dearerRound,
  processFactors,
  replaceDearerRounds,
} from '../bench/dearer-process.mjs';

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

  describe('measuring a round again', () => {
    /** A round measurer that answers each call with the next of `answers` (costs by scenario). */
    const measurer = (target, answers) => {
      const asked = [];
      const measureRound = async (round) => {
        asked.push(round);
        const costs = answers[asked.length - 1];
        return Object.entries(costs).map(([scenario, cpuPerRequestUs]) => ({
          target,
          scenario,
          round,
          cpuPerRequestUs,
          again: asked.length,
        }));
      };
      return { asked, measureRound };
    };

    it('measures nothing again when no process was dearer', async () => {
      const first = windows({ ours: { 'list-20': [99, 104, 110] } });
      const { asked, measureRound } = measurer('ours', []);
      const result = await replaceDearerRounds(first, { measureRound, maxRepeats: 3 });
      expect(asked).toEqual([]);
      expect(result).toEqual({ windows: first, replaced: [] });
    });

    it('replaces the dearer round by what new processes measured, and keeps what it measured first', async () => {
      const first = windows({ ours: { 'list-20': [100, 170, 104], get: [95, 160, 96] } });
      const { asked, measureRound } = measurer('ours', [{ 'list-20': 102, get: 94 }]);
      const told = [];
      const result = await replaceDearerRounds(first, {
        measureRound,
        maxRepeats: 3,
        onRepeat: (dearer) => told.push(dearer.round),
      });
      expect(asked).toEqual([2]);
      expect(told).toEqual([2]);
      expect(result.windows.map((w) => [w.round, w.scenario, w.cpuPerRequestUs])).toEqual([
        [1, 'list-20', 100],
        [1, 'get', 95],
        [2, 'list-20', 102],
        [2, 'get', 94],
        [3, 'list-20', 104],
        [3, 'get', 96],
      ]);
      expect(result.replaced).toEqual([
        {
          target: 'ours',
          round: 2,
          factor: expect.closeTo(1.69, 2),
          windows: first.filter((w) => w.round === 2),
        },
      ]);
    });

    it('measures the next dearer round once the dearest is replaced', async () => {
      const first = windows({ ours: { get: [100, 140, 190] } });
      const { asked, measureRound } = measurer('ours', [{ get: 101 }, { get: 99 }]);
      const result = await replaceDearerRounds(first, { measureRound, maxRepeats: 3 });
      expect(asked).toEqual([3, 2]);
      expect(result.windows.map((w) => w.cpuPerRequestUs)).toEqual([100, 99, 101]);
      expect(result.replaced.map((r) => [r.round, r.factor])).toEqual([
        [3, 1.9],
        [2, 1.4],
      ]);
    });

    it('stops after maxRepeats when the dearer cost does not pass', async () => {
      const first = windows({ ours: { get: [100, 200] } });
      const { asked, measureRound } = measurer('ours', [{ get: 210 }, { get: 190 }, { get: 1 }]);
      const result = await replaceDearerRounds(first, { measureRound, maxRepeats: 2 });
      expect(asked).toEqual([2, 2]);
      expect(result.replaced).toHaveLength(2);
      expect(result.windows.map((w) => w.cpuPerRequestUs)).toEqual([100, 190]);
    });
  });
});
