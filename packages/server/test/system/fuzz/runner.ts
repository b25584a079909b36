import fc from 'fast-check';
import type { TestServer } from '../../../src/testing/index.js';
import { type Operation, operations, validRequestsOf } from './contract.js';
import { type Mutation, mutationKinds, mutationsOf } from './mutations.js';
import { checkAnswer, checkStillUp, type FuzzCase, StoreModel } from './oracle.js';
import { describeRequest, type DraftRequest, toWire } from './request.js';
import { send } from './wire.js';

/**
 * Runs the fuzz property against one running server: `runs` cases, each one request generated
 * from the contract, mutated or not, sent on the wire, its answer checked by the oracle, the
 * server's health checked, and the store compared with the model; then the listing is walked.
 * Seeded: a failure names the seed and path that replay it.
 */

export interface FuzzOptions {
  /** Cases to run (`FUZZ_RUNS`, default 5000). */
  runs: number;
  /** fast-check's seed (`FUZZ_SEED`, default random). */
  seed: number;
  /** fast-check's path of one failing case (`FUZZ_PATH`): replay just that case. */
  path?: string | undefined;
}

export function fuzzOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): FuzzOptions {
  const number = (name: string, fallback: number) => {
    const value = env[name] === undefined || env[name] === '' ? fallback : Number(env[name]);
    if (!Number.isInteger(value)) throw new Error(`${name} must be an integer (got ${env[name]})`);
    return value;
  };
  return {
    runs: number('FUZZ_RUNS', 5000),
    seed: number('FUZZ_SEED', Math.floor(Math.random() * 2 ** 31)),
    path: env.FUZZ_PATH || undefined,
  };
}

/** What a run did, to show it exercised everything (a run of only 401s would prove nothing). */
export interface FuzzStats {
  cases: number;
  acceptedCreates: number;
  statuses: Record<number, number>;
  /** How often each mutation kind was applied (every kind appears). */
  mutations: Record<string, number>;
  /** Operations answered with a success at least once. */
  succeeded: string[];
}

/** Every case: a request of one operation (creates weigh double): one in four unmutated, half with one mutation, the rest with two or three. */
export function fuzzCases(key: string): fc.Arbitrary<FuzzCase> {
  const spoiled = (operation: Operation) =>
    fc.oneof(
      // A failure that needs no mutation shrinks to the unmutated request.
      { withCrossShrink: true },
      { weight: 1, arbitrary: fc.constant<Mutation[]>([]) },
      { weight: 2, arbitrary: mutationsOf(operation).map((mutation) => [mutation]) },
      { weight: 1, arbitrary: fc.array(mutationsOf(operation), { minLength: 2, maxLength: 3 }) },
    );
  return fc.oneof(
    ...operations.map((operation) => ({
      weight: operation.body ? 2 : 1,
      arbitrary: fc
        .tuple(validRequestsOf(operation, key), spoiled(operation))
        .map(([valid, applied]) => fuzzCase(operation.id, valid, applied)),
    })),
  );
}

function fuzzCase(operation: string, valid: DraftRequest, applied: Mutation[]): FuzzCase {
  const request = applied.reduce((draft, mutation) => mutation.apply(draft), valid);
  return {
    operation,
    mutations: applied,
    request,
    // How fast-check prints the counterexample.
    [fc.toStringMethod]: () =>
      [
        `${operation}, ${applied.length === 0 ? 'unmutated' : applied.map((m) => m.note).join('; ')}`,
        describeRequest(request),
      ].join('\n'),
  } as FuzzCase;
}

/** Runs the fuzz property; throws with the seed, path and shrunk counterexample on failure. */
export async function fuzz(
  server: TestServer,
  key: string,
  label: string,
  options: FuzzOptions,
): Promise<FuzzStats> {
  const model = new StoreModel(server, key);
  const stats: FuzzStats = {
    cases: 0,
    acceptedCreates: 0,
    statuses: {},
    mutations: {},
    succeeded: [],
  };
  const succeeded = new Set<string>();

  const property = fc.asyncProperty(fuzzCases(key), async (fuzzCase) => {
    await model.begin();
    const response = await send(server.url, toWire(fuzzCase.request));
    stats.cases += 1;
    stats.statuses[response.status] = (stats.statuses[response.status] ?? 0) + 1;
    for (const { kind } of fuzzCase.mutations)
      stats.mutations[kind] = (stats.mutations[kind] ?? 0) + 1;
    if (response.status < 300 && fuzzCase.mutations.length === 0) succeeded.add(fuzzCase.operation);
    checkAnswer(fuzzCase, response);
    await checkStillUp(server);
    await model.check(fuzzCase, response);
  });
  const details = await fc.check(property, {
    numRuns: options.runs,
    seed: options.seed,
    ...(options.path === undefined ? {} : { path: options.path, endOnFailure: true }),
  });
  if (details.failed) {
    const replay = `FUZZ_SEED=${details.seed} FUZZ_PATH="${details.counterexamplePath ?? ''}"`;
    throw new Error(
      [
        `Fuzz property failed on ${label} (seed ${details.seed}).`,
        `Replay the shrunk case alone: ${replay} npx vitest run --project server test/system/fuzz -t '${label}'`,
        fc.defaultReportMessage(details),
        `Failure: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
      ].join('\n'),
    );
  }

  try {
    await model.checkListing();
  } catch (error) {
    throw new Error(
      `After the run with seed ${options.seed} on ${label}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  stats.acceptedCreates = model.size;
  stats.succeeded = [...succeeded].sort();
  for (const kind of mutationKinds) stats.mutations[kind] ??= 0;
  return stats;
}
