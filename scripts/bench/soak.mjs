// The soak: a long mixed load on our server while its RSS is sampled, to show memory levels
// off instead of growing, and what the V8 heap holds of it.
import { BenchError } from './errors.mjs';
import { load, memory, requestFor, resetPeakRss, unexpectedAnswers } from './measure.mjs';
import { soakMix } from './scenarios.mjs';

/** The soak's server serves /metrics to this token (METRICS_TOKEN), for its heap's spaces. */
export const SOAK_METRICS_TOKEN = 'bench-soak-metrics-token';

/**
 * After a warm-up of the same mix, `seconds` of it while RSS is sampled every 5 s (every
 * second in soaks under a minute). RSS swings with garbage collection, so besides the slope of
 * all samples and of the second half's (the first half includes the heap growing to its working
 * size), it reports the second half's floor slope: through the lowest sample of each tenth of
 * the soak, what is left after collections. A leak raises the floor. The V8 heap's spaces are
 * read from the server's /metrics at the start and at the end (`heap`), to say where RSS went.
 */
export async function soak({ target, apiKey, connections, seconds, warmUp }) {
  const requests = soakMix.map((scenario) => requestFor(scenario, apiKey));
  if (warmUp > 0) await load({ port: target.port, requests, connections, seconds: warmUp });
  const everyMs = seconds >= 60 ? 5_000 : 1_000;
  resetPeakRss(target.pid);
  const startedAt = performance.now();
  const samples = [];
  const sample = () =>
    samples.push({
      seconds: (performance.now() - startedAt) / 1000,
      rssMiB: memory(target.pid).rssMiB,
    });
  sample();
  const heapFirst = await heapOf(target.port);
  const timer = setInterval(sample, everyMs);
  let result;
  try {
    result = await load({ port: target.port, requests, connections, seconds });
  } finally {
    clearInterval(timer);
  }
  sample();
  const heapLast = await heapOf(target.port);
  return {
    seconds,
    mix: soakMix.map((scenario) => scenario.name),
    reqPerSec: result.requests.total / result.duration,
    p99Ms: result.latency.p99,
    unexpected: unexpectedAnswers(
      result,
      soakMix.flatMap((scenario) => scenario.expected.ours),
    ),
    errors: result.errors + result.timeouts,
    firstMiB: samples[0].rssMiB,
    lastMiB: samples.at(-1).rssMiB,
    peakMiB: memory(target.pid).peakMiB,
    slopeMiBPerMin: slope(samples),
    secondHalfSlopeMiBPerMin: slope(samples.filter((s) => s.seconds >= seconds / 2)),
    secondHalfFloorSlopeMiBPerMin: slope(
      floor(samples, seconds / 10).filter((s) => s.seconds >= seconds / 2),
    ),
    heap: { first: heapFirst, last: heapLast },
    samples,
  };
}

/**
 * The V8 heap as prom-client's default metrics give it: each space's size (what the heap has
 * taken from the system for it, in MiB), the memory V8 knows is held outside it (`external`:
 * Buffers and the like), and RSS as the server reads it, all at the same moment.
 */
async function heapOf(port) {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${SOAK_METRICS_TOKEN}` },
  });
  if (!response.ok) throw new BenchError(`the soak's GET /metrics answered ${response.status}`);
  const text = await response.text();
  const mib = (bytes) => Number(bytes) / 1024 / 1024;
  const spacesMiB = {};
  for (const [, space, bytes] of text.matchAll(
    /^petstore_nodejs_heap_space_size_total_bytes\{space="([a-z_]+)"\} (\S+)$/gm,
  )) {
    spacesMiB[space] = mib(bytes);
  }
  const value = (name) => mib(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    spacesMiB,
    externalMiB: value('petstore_nodejs_external_memory_bytes'),
    rssMiB: value('petstore_process_resident_memory_bytes'),
  };
}

/** The lowest sample of each `window` seconds, at the window's middle. */
export function floor(samples, window) {
  const windows = new Map();
  for (const sample of samples) {
    const index = Math.min(Math.floor(sample.seconds / window), 9);
    const low = windows.get(index);
    if (low === undefined || sample.rssMiB < low) windows.set(index, sample.rssMiB);
  }
  return [...windows].map(([index, rssMiB]) => ({ seconds: (index + 0.5) * window, rssMiB }));
}

/** Least-squares slope of RSS over time, in MiB per minute (null with under two samples). */
export function slope(samples) {
  if (samples.length < 2) return null;
  const n = samples.length;
  const meanT = samples.reduce((sum, s) => sum + s.seconds, 0) / n;
  const meanR = samples.reduce((sum, s) => sum + s.rssMiB, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const { seconds, rssMiB } of samples) {
    covariance += (seconds - meanT) * (rssMiB - meanR);
    variance += (seconds - meanT) ** 2;
  }
  return variance === 0 ? null : (covariance / variance) * 60;
}
