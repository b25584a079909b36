import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AbortedError, createPetstoreClient, type PetstoreClient } from '../../src/index.js';
import { realServer, stallFirst } from './support.js';

// A forced full collection, so that what the test counts does not depend on when V8 collects.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const CALLS = 4_000;
const IN_FLIGHT = 100;

/** The abort listeners on `signal`: what every call sharing it may have added and not removed. */
const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

/** Lets finalisation callbacks (which remove listeners of collected requests) run. */
const afterCollection = async () => {
  collectGarbage();
  await new Promise((resolve) => setImmediate(resolve));
};

describe('a long-lived AbortSignal shared by many calls', { timeout: 300_000 }, () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  beforeEach(() => {
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(() => {
    process.off('warning', onWarning);
  });

  /**
   * `calls` listPets over `signal`, `IN_FLIGHT` at a time. Before each call starts and after each
   * settles, the listeners on `signal` are counted against the calls in flight then; returns the
   * largest excess seen (at most one listener is allowed, and none with nothing in flight).
   */
  async function callsSharing(client: PetstoreClient, signal: AbortSignal, calls: number) {
    let started = 0;
    let inFlight = 0;
    let excess = Number.NEGATIVE_INFINITY;
    const count = () => {
      excess = Math.max(excess, abortListeners(signal) - Math.min(inFlight, 1));
    };
    const worker = async () => {
      while (started < calls) {
        started += 1;
        inFlight += 1;
        const call = client.listPets({ limit: 1 }, { signal });
        count();
        const { data } = await call;
        inFlight -= 1;
        count();
        expect(data).toHaveLength(1);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    return excess;
  }

  it(`keeps at most one listener on it over ${CALLS} calls, ${IN_FLIGHT} at a time, and none after`, async () => {
    const server = await realServer();
    const key = await server.createKey('free');
    await server.storage.pets.create({ name: 'Rex', categoryId: 1 });
    const client = createPetstoreClient({ baseUrl: server.baseUrl, apiKey: key });
    const signal = new AbortController().signal;

    expect.soft(await callsSharing(client, signal, CALLS / 2)).toBeLessThanOrEqual(0);
    expect.soft(abortListeners(signal)).toBe(0);
    await afterCollection();
    expect.soft(await callsSharing(client, signal, CALLS / 2)).toBeLessThanOrEqual(0);
    expect.soft(abortListeners(signal)).toBe(0);
    await afterCollection();
    expect.soft(abortListeners(signal)).toBe(0);
    expect
      .soft(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning'))
      .toEqual([]);
  });

  it('carries no listener between the pages of listAllPets on it, nor after', async () => {
    const server = await realServer();
    for (const name of ['Rex', 'Tom', 'Kit', 'Bo', 'Max']) {
      await server.storage.pets.create({ name, categoryId: 1 });
    }
    const client = createPetstoreClient({
      baseUrl: server.baseUrl,
      apiKey: await server.createKey('free'),
    });
    const signal = new AbortController().signal;

    const names: string[] = [];
    for await (const pet of client.listAllPets({ limit: 1 }, { signal })) {
      names.push(pet.name);
      expect(abortListeners(signal)).toBe(0);
    }
    expect(names).toEqual(['Rex', 'Tom', 'Kit', 'Bo', 'Max']);
    expect(abortListeners(signal)).toBe(0);
  });

  it('still aborts every call in flight on it, and those started after', async () => {
    const stall = stallFirst('list');
    const server = await realServer({ decorateStorage: stall.decorateStorage });
    stall.arm();
    const client = createPetstoreClient({
      baseUrl: server.baseUrl,
      apiKey: await server.createKey('free'),
    });
    const controller = new AbortController();
    const { signal } = controller;

    const calls = Array.from({ length: IN_FLIGHT }, () =>
      client.listPets({}, { signal }).then(
        () => 'answered',
        (error: unknown) => error,
      ),
    );
    await stall.arrived; // one of them is held by the server, unanswered
    expect(abortListeners(signal)).toBeLessThanOrEqual(1);
    const reason = new Error('the caller gave up');
    controller.abort(reason);
    const late = await client.listPets({}, { signal }).catch((error: unknown) => error);
    stall.release();

    const outcomes = await Promise.all(calls);
    const aborted = outcomes.filter((outcome) => outcome instanceof AbortedError);
    expect(aborted.length).toBeGreaterThanOrEqual(1);
    expect(outcomes.filter((outcome) => outcome !== 'answered')).toEqual(aborted);
    for (const error of [...aborted, late]) {
      expect(error).toBeInstanceOf(AbortedError);
      expect((error as AbortedError).cause).toBe(reason);
    }
    expect(abortListeners(signal)).toBe(0);
  });
});
