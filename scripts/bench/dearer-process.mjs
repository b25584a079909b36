// A round whose process was dearer. Now and then a target's windows cost 1.6–2× its usual CPU
// per request though the machine probes around them were fast: in one full run a naive
// process did so in every scenario for its whole life while our windows beside it were
// normal; in a hunt of 123 fresh processes (docs/benchmark-stability.md) none stayed
// dear, but one 4 s window cost 1.9× between two fast probes, a slow phase of the core too
// short for them. Either way it is not the code's cost. Each round runs fresh processes
// (run.mjs); once a data set's rounds are done, a round in which some target's process cost
// over 1 + DEARER times its cheapest round (the median over its scenarios, so one odd window
// does not count) is measured again with new processes of every target (so the round's
// targets still ran seconds apart), and what it measured first is kept in the JSON.
import { median } from './report.mjs';

/** A process whose windows cost over 1 + DEARER times its target's cheapest round is dearer. */
export const DEARER = 0.3;

/**
 * Per target and round, the median over scenarios of the window's CPU per request ÷ the lowest
 * of that scenario and target over the rounds: how much dearer that round's process was than
 * the target's cheapest. `windows`: one data set's `{ scenario, target, round, cpuPerRequestUs }`.
 * Returns `[{ target, round, factor }]`.
 */
export function processFactors(windows) {
  const lowest = new Map();
  const key = (window) => `${window.target}|${window.scenario}`;
  for (const window of windows) {
    if (!Number.isFinite(window.cpuPerRequestUs)) continue;
    lowest.set(key(window), Math.min(lowest.get(key(window)) ?? Infinity, window.cpuPerRequestUs));
  }
  const perProcess = new Map();
  for (const window of windows) {
    if (!Number.isFinite(window.cpuPerRequestUs)) continue;
    const process = `${window.target}|${window.round}`;
    if (!perProcess.has(process)) {
      perProcess.set(process, { target: window.target, round: window.round, ratios: [] });
    }
    perProcess.get(process).ratios.push(window.cpuPerRequestUs / lowest.get(key(window)));
  }
  return [...perProcess.values()].map(({ target, round, ratios }) => ({
    target,
    round,
    factor: median(ratios),
  }));
}

/** The round to measure again (its dearest process over 1 + DEARER), or null. */
export function dearerRound(windows) {
  const dearest = processFactors(windows)
    .filter(({ factor }) => factor > 1 + DEARER)
    .sort((a, b) => b.factor - a.factor);
  return dearest[0] ?? null;
}

/**
 * The rounds `measureRound(round)` measured, with every round that had a dearer process measured
 * again, at most `maxRepeats` times in all (a dearer state that does not pass would otherwise
 * repeat forever). `windows`: the windows of every round, as measured first. `onRepeat(dearer)`
 * is told before each repeat. Resolves to `{ windows, replaced }`: the windows kept, by round,
 * and per repeat `{ target, round, factor, windows }` (what that round measured before).
 */
export async function replaceDearerRounds(windows, { measureRound, maxRepeats, onRepeat }) {
  let kept = windows;
  const replaced = [];
  while (replaced.length < maxRepeats) {
    const dearer = dearerRound(kept);
    if (dearer === null) break;
    onRepeat?.(dearer);
    replaced.push({ ...dearer, windows: kept.filter((w) => w.round === dearer.round) });
    const again = await measureRound(dearer.round);
    kept = [...kept.filter((w) => w.round !== dearer.round), ...again].sort(
      (a, b) => a.round - b.round,
    );
  }
  return { windows: kept, replaced };
}
