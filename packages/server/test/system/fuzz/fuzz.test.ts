import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../src/testing/index.js';
import { serverOnEachStore } from '../../support/server-on-each-store.js';
import { operations } from './contract.js';
import { mutationKinds } from './mutations.js';
import { fuzz, fuzzOptionsFromEnv } from './runner.js';

/**
 * The property-based fuzz suite (docs/security.md): requests generated from the contract, then
 * mutated, sent to the real server (response validation on) on SQLite and on PostgreSQL. One
 * server per backend for the whole run. FUZZ_RUNS (default 5000), FUZZ_SEED and FUZZ_PATH
 * (printed on failure) replay a run or one case.
 */
const options = fuzzOptionsFromEnv();

/** Generous: a run takes well under a minute per backend here; shrinking a failure takes longer. */
const TIMEOUT_MS = 600_000;

describe.each(serverOnEachStore)('fuzzing the server on $name', ({ name: label, start }) => {
  let server: TestServer;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ server, stop } = await start());
  });
  afterAll(() => stop());

  it(
    'answers every generated and mutated request within the contract, stays up, and keeps exactly the accepted creates',
    async () => {
      const key = await server.createKey('pro');
      const stats = await fuzz(server, key, label, options);

      console.info(`fuzz ${label}: seed ${options.seed}, ${JSON.stringify(stats)}`);
      // Not vacuous (in a full run; a replay runs one case): every operation succeeded,
      // creates were accepted, every kind of mutation was applied.
      if (options.path === undefined && options.runs >= 1000) {
        expect(stats.cases).toBeGreaterThanOrEqual(options.runs);
        expect(stats.succeeded).toEqual(operations.map((operation) => operation.id).sort());
        expect(stats.acceptedCreates).toBeGreaterThan(0);
        for (const kind of mutationKinds) expect(stats.mutations[kind], kind).toBeGreaterThan(0);
      }
    },
    TIMEOUT_MS,
  );
});
