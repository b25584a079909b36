// The stability summary over several benchmark reports (scripts/bench/stability.mjs), on
// reports made up here: the figures are chosen so each spread is known.
import { describe, expect, it } from 'vitest';
import { formatStability, stability } from '../bench/stability.mjs';

const round = (cpuPerRequestUs, machine, during = machine, p10 = cpuPerRequestUs * 0.8) => ({
  cpuPerRequestUs,
  machineUs: { before: machine, after: machine, during },
  cpuPerRequestUnits: cpuPerRequestUs / machine,
  cpuPerRequestP10Us: p10,
});

const report = (date, oursRounds, naiveRounds) => ({
  meta: { date },
  machine: { windows: 4, medianUs: 10, minUs: 10, maxUs: 20, changed: 1 },
  rows: [
    {
      database: 'sqlite',
      scenario: 'list-20',
      title: 'GET /v1/pets?limit=20',
      target: 'ours',
      rounds: oursRounds,
    },
    {
      database: 'sqlite',
      scenario: 'list-20',
      title: 'GET /v1/pets?limit=20',
      target: 'naive',
      rounds: naiveRounds,
    },
  ],
});

describe('bench stability', () => {
  // Ours doubles its CPU per request in the second run while the core is half as fast: the
  // raw spread is large, the spread in probe units nil, and its cheapest half-seconds stay at
  // 80 µs. The naive stack moves 10 % on a steady core, except for its probe during one window
  // and its cheapest half-seconds in another, which a run of an older harness lacks.
  const reports = [
    report(
      '2026-11-26T01:00:00.000Z',
      [round(100, 10), round(100, 10)],
      [round(100, 10), round(105, 10)],
    ),
    report(
      '2026-11-26T02:00:00.000Z',
      [round(200, 20, 20, 80), round(200, 20, 20, 88)],
      [
        { ...round(110, 10, 11), cpuPerRequestP10Us: undefined },
        { ...round(100, 10), machineUs: { before: 10, after: 10 } },
      ],
    ),
  ];

  it('gives each figure its range over every round of every run, its spread and each run’s median', () => {
    const [ours, naive] = stability(reports);
    expect(ours).toMatchObject({
      target: 'ours',
      rounds: 4,
      cpu: { low: 100, high: 200, spread: 100 / 150, runMedians: [100, 200] },
      units: { low: 10, high: 10, spread: 0 },
      perDuring: { low: 10, high: 10, spread: 0, runMedians: [10, 10] },
      p10: { low: 80, high: 88, spread: 0.1, runMedians: [80, 84] },
      // On the fast core (probes within 10 % of the fastest, 10 µs): the first run's rounds only.
      fastRounds: 2,
      fast: { low: 100, high: 100, spread: 0, runMedians: [100, null] },
      stable: false,
    });
    expect(naive).toMatchObject({
      target: 'naive',
      cpu: { low: 100, high: 110, spread: 10 / 102.5, runMedians: [102.5, 105] },
      // 10, 10.5, 10 (110 ÷ 11): the round without a probe during it is left out.
      perDuring: { low: 10, high: 10.5, spread: 0.05, runMedians: [10.25, 10] },
      // 80, 84, 80: the round without them is left out.
      p10: { low: 80, high: 84, spread: 0.05, runMedians: [82, 80] },
      fastRounds: 4,
      stable: true,
    });
  });

  it('leaves out of the fast core a round whose probe in bursts read over 7 % above its run’s lowest', () => {
    // Both probes around every window fast (10 µs); the bursts read 11, 11.7 and 11.8 µs: the
    // last is 7.3 % over the run's lowest and its 130 µs round is left out of the fast core.
    const bursts = report(
      '2026-11-29T15:00:00.000Z',
      [round(100, 10, 11), round(105, 10, 11.7), round(130, 10, 11.8)],
      [round(100, 10, 11), round(100, 10, 11), round(100, 10, 11)],
    );
    bursts.meta.probeDuring = 'bursts at real-time priority';
    const [ours, naive] = stability([bursts]);
    expect(ours).toMatchObject({ fastRounds: 2, fast: { low: 100, high: 105 } });
    expect(naive.fastRounds).toBe(3);
    // At normal priority (or in JSON from before the bursts) the gate does not use them.
    bursts.meta.probeDuring = 'bursts at normal priority (chrt -f not permitted)';
    expect(stability([bursts])[0].fastRounds).toBe(3);
  });

  it('leaves out of the fast core a round whose memory loads read over 7 % above all the runs’ lowest', () => {
    // The core fast throughout; the loads read 200, 214 and 215 ns in the first run and 230 in
    // every round of the second, whose own lowest is then slow too: judged against both runs'
    // lowest (200 ns), the 215 ns round and the whole second run are left out.
    const loads = (...ns) =>
      ns.map((memoryNs) => ({ ...round(100 + memoryNs / 10, 10), memoryNs }));
    const first = report('2026-11-29T22:00:00.000Z', loads(200, 214, 215), loads(200, 200, 200));
    const second = report('2026-11-29T23:00:00.000Z', loads(230, 230, 230), loads(200, 200, 200));
    for (const run of [first, second]) run.meta.probeDuring = 'bursts at real-time priority';
    const [ours, naive] = stability([first, second]);
    expect(ours).toMatchObject({ fastRounds: 2, fast: { low: 120, high: 121.4 } });
    expect(naive.fastRounds).toBe(6);
    expect(formatStability([first, second], [ours, naive])).toContain(
      "its memory loads within 7 % of these runs' lowest (200.0 ns per load).",
    );
    // At normal priority the server's threads cut into the loads too: that run's loads decide
    // nothing, and the lowest is the other run's.
    second.meta.probeDuring = 'bursts at normal priority (chrt -f not permitted)';
    expect(stability([first, second])[0]).toMatchObject({ fastRounds: 5 });
  });

  it('leaves out a row that a report lacks', () => {
    const partial = { ...reports[1], rows: reports[1].rows.slice(0, 1) };
    expect(stability([reports[0], partial]).map((row) => row.target)).toEqual(['ours']);
  });

  it('prints a Markdown table marking the spreads above 15 %, and each run’s probe', () => {
    const text = formatStability(reports, stability(reports));
    expect(text).toContain(
      '| sqlite | GET /v1/pets?limit=20 | ours | 4 | 100–200 µs | 67 % ✗ | 100, 200 µs | 10.0–10.0 | 0 % | 10.0–10.0 | 0 % | 80–88 µs | 10 % | 2 | 100–100 µs | 0 % |',
    );
    expect(text).toContain(
      '| sqlite | GET /v1/pets?limit=20 | naive | 4 | 100–110 µs | 10 % | 103, 105 µs |',
    );
    expect(text).toContain(
      'Run 2: probe 10.00–20.00 µs per unit (median 10.00); moved > 10 % within 1 of 4 windows',
    );
  });
});
