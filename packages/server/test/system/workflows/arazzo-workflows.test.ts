/**
 * The consumer workflows of openapi/workflows/*.arazzo.yaml, run by `redocly respect` against
 * a real server (real SQLite file, response validation on). Respect also checks every response
 * against the description: documented status, content type and schema.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '@petstore/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../../src/rate-limit/index.js';
import type { RateLimiter } from '../../../src/rate-limit/index.js';
import { executedSteps, repoRoot, respect, workflowsDir } from './respect.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Fails with Respect's own report, so a failing step explains itself. */
function expectPassed(run: { code: number; output: string }): void {
  expect(run.code, run.output).toBe(0);
}

describe('the Arazzo workflows', { timeout: 60_000 }, () => {
  it('lint clean', async () => {
    const files = (await readdir(workflowsDir)).filter((f) => f.endsWith('.arazzo.yaml'));
    expect(files.sort()).toEqual([
      'create-and-find.arazzo.yaml',
      'deprecated-get-pet.arazzo.yaml',
      'idempotent-create.arazzo.yaml',
      'rate-limit-recovery.arazzo.yaml',
      'walk-pages.arazzo.yaml',
    ]);
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['scripts/redocly.mjs', 'lint', ...files.map((f) => path.join(workflowsDir, f))],
      { cwd: repoRoot },
    );
    expect(`${stdout}${stderr}`).toContain('Your API descriptions are valid');
  });

  it('create a pet, then find it in the list', async () => {
    server = await startTestServer();
    const key = await server.createKey('free');
    await server.storage.pets.create({ name: 'Rex', categoryId: 1, status: 'available' });

    const run = await respect('create-and-find.arazzo.yaml', server.baseUrl, { apiKey: key });

    expectPassed(run);
    const [created, found] = executedSteps(run.log, 'createThenFind');
    expect(created?.response.statusCode).toBe(201);
    expect(found?.response.body).toEqual([
      { id: 2, name: 'Biscuit', categoryId: 7, status: 'pending' },
    ]);
  });

  it('walk the pages by following the next link', async () => {
    server = await startTestServer();
    const key = await server.createKey('free');
    for (const [name, categoryId] of [
      ['Rex', 1],
      ['Tom', 2],
      ['Polly', 3],
    ] as const) {
      await server.storage.pets.create({ name, categoryId });
    }

    const first = await respect('walk-pages.arazzo.yaml', server.baseUrl, { apiKey: key }, [
      'walkPages',
    ]);
    expectPassed(first);
    // The client's part Arazzo cannot express: take the next link's target, as given.
    const link = executedSteps(first.log, 'walkPages')[0]?.response.headers.link ?? '';
    const target = /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
    expect(target).toBeDefined();
    const cursor = new URL(target ?? '', server.url).searchParams.get('cursor') ?? '';

    const next = await respect('walk-pages.arazzo.yaml', server.baseUrl, { apiKey: key, cursor }, [
      'followNextPage',
    ]);

    expectPassed(next);
    const [last] = executedSteps(next.log, 'followNextPage');
    expect(last?.response.body).toEqual([{ id: 3, name: 'Polly', categoryId: 3 }]);
    expect(last?.response.headers.link).toBeUndefined();
  });

  it('get a pet with the deprecated getPet and read the notice', async () => {
    server = await startTestServer();
    const key = await server.createKey('free');

    const run = await respect('deprecated-get-pet.arazzo.yaml', server.baseUrl, { apiKey: key });

    expectPassed(run);
    const steps = executedSteps(run.log, 'getDeprecatedPet');
    expect(steps.map((step) => [step.stepId, step.response.statusCode])).toEqual([
      ['createPet', 201],
      ['getPet', 200],
      ['getMissingPet', 404],
      ['findWithReplacement', 200],
    ]);
  });

  it('create with an Idempotency-Key, replay it, and find the animal once', async () => {
    server = await startTestServer();
    const key = await server.createKey('free');

    const run = await respect('idempotent-create.arazzo.yaml', server.baseUrl, {
      apiKey: key,
      idempotencyKey: `"${randomUUID()}"`,
    });

    expectPassed(run);
    const steps = executedSteps(run.log, 'createThenReplay');
    expect(steps.map((step) => [step.stepId, step.response.statusCode])).toEqual([
      ['createPet', 201],
      ['replayCreatePet', 201],
      ['listOnce', 200],
    ]);
    expect(steps[1]?.response.headers['idempotent-replayed']).toBe('true');
    expect(steps[2]?.response.body).toEqual([
      { id: 1, name: 'Echo', categoryId: 4, status: 'available' },
    ]);
  });

  it('hit the rate limit, wait Retry-After, and recover', async () => {
    // The consumer waits Retry-After seconds: the server's clock jumps by exactly that
    // when it refuses a request, so the retry finds the next window without real waiting.
    const refusals: number[] = [];
    server = await startTestServer({
      limiter: (clock): RateLimiter => {
        const limiter = createMemoryRateLimiter({ clock });
        return {
          async consume(subject, quota) {
            const decision = await limiter.consume(subject, quota);
            if (!decision.allowed) {
              refusals.push(decision.retryAfterSeconds);
              clock.advance(decision.retryAfterSeconds * 1000);
            }
            return decision;
          },
          health: () => limiter.health(),
          close: () => limiter.close(),
        };
      },
    });
    const startedAt = server.clock.now();
    const key = await server.createKey('enterprise', { perMinute: 2, perDay: 1000 });

    const run = await respect('rate-limit-recovery.arazzo.yaml', server.baseUrl, { apiKey: key });

    expectPassed(run);
    const steps = executedSteps(run.log, 'rateLimitAndRecover');
    expect(steps.map((step) => [step.stepId, step.response.statusCode])).toEqual([
      ['firstRequest', 200],
      ['lastAllowedRequest', 200],
      ['overTheLimit', 429],
      ['afterWaiting', 200],
    ]);
    // The test clock starts on a minute boundary: the window had 60 s left.
    expect(refusals).toEqual([60]);
    expect(steps[2]?.response.headers['retry-after']).toBe('60');
    expect(server.clock.now() - startedAt).toBe(60_000);
  });
});
