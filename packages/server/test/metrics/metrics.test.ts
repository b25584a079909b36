import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryRateLimiter,
  startTestServer,
  type TestServer,
} from '../../src/testing/index.js';
import { createRedisRateLimiter } from '../../src/rate-limit/index.js';
import { capturedLogger, freePort, OwnRedis } from '../rate-limit/support.js';
import { createPet, get } from '../support/requests.js';
import { issueKeyIn, listening, spawnServer } from '../support/server-process.js';
import { createTemporaryPostgresDatabase } from '../support/temporary-postgres-database.js';

/** A SQLite file in a folder of its own, removed by `drop`. */
async function sqliteFile() {
  const dir = await mkdtemp(path.join(tmpdir(), 'petstore-metrics-'));
  return { url: `file:${path.join(dir, 'petstore.db')}`, drop: () => rm(dir, { recursive: true }) };
}

const token = 'scrape-token-0123456789';

/** One sample of the Prometheus text format: `name{label="value",…} number`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text exposition format (comments and blank lines skipped). */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a Prometheus sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(
          (label) => [label[1]!, label[2]!],
        ),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, expected]) => sample.labels[key] === expected),
    )
    .reduce((sum, sample) => sum + sample.value, 0);

describe('/metrics', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer({
      metricsToken: token,
      limiter: (clock) => createMemoryRateLimiter({ clock }),
    });
    key = await server.createKey('enterprise', { perMinute: 3, perDay: 100 });
  });
  afterAll(() => server.close());

  const scrape = async () => {
    const response = await fetch(`${server.url}/metrics`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parse(await response.text());
  };

  it('answers 404 to a scraper without the token, or with another', async () => {
    for (const headers of [
      {},
      { Authorization: 'Bearer nope-nope-nope-nope' },
      { Authorization: token },
    ]) {
      expect((await fetch(`${server.url}/metrics`, { headers })).status).toBe(404);
    }
  });

  it('starts at zero: the start-up warm-up is not counted', async () => {
    const fresh = await startTestServer({ metricsToken: token });
    try {
      const response = await fetch(`${fresh.url}/metrics`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const samples = parse(await response.text());
      expect(value(samples, 'petstore_http_requests_total')).toBe(0);
      expect(value(samples, 'petstore_rate_limit_decisions_total')).toBe(0);
      expect(value(samples, 'petstore_store_query_duration_seconds_count')).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('counts requests by operation and status, times them, and counts rate-limit outcomes', async () => {
    const before = await scrape();
    const pet = await createPet(server, key, { name: 'Rex', categoryId: 1 }); // 201, allowed
    await get(server, key, `/v1/pets/${pet.id}`); // 200, allowed
    await get(server, key, '/v1/pets'); // 200, allowed: the minute's 3 are used
    await get(server, key, '/v1/pets'); // 429, limited
    await get(server, undefined, '/v1/pets'); // 401 (counted by address), allowed
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);

    expect(delta('petstore_http_requests_total', { operation: 'createPet', status: '201' })).toBe(
      1,
    );
    expect(delta('petstore_http_requests_total', { operation: 'getPet', status: '200' })).toBe(1);
    expect(delta('petstore_http_requests_total', { operation: 'listPets', status: '200' })).toBe(1);
    expect(delta('petstore_http_requests_total', { operation: 'none', status: '429' })).toBe(1);
    expect(delta('petstore_http_requests_total', { operation: 'none', status: '401' })).toBe(1);
    expect(delta('petstore_http_request_duration_seconds_count', { operation: 'listPets' })).toBe(
      1,
    );
    expect(
      delta('petstore_http_request_duration_seconds_bucket', { operation: 'listPets', le: '+Inf' }),
    ).toBe(1);
    expect(delta('petstore_rate_limit_decisions_total', { outcome: 'allowed' })).toBe(4);
    expect(delta('petstore_rate_limit_decisions_total', { outcome: 'limited' })).toBe(1);
    expect(
      delta('petstore_store_query_duration_seconds_count', {
        method: 'pets.create',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(
      delta('petstore_store_query_duration_seconds_count', { method: 'pets.list', outcome: 'ok' }),
    ).toBe(1);
    expect(value(after, 'petstore_redis_fallback')).toBe(0);
    expect(value(after, 'petstore_process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(value(after, 'petstore_nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  // The request's one read of the store's revisions (identifyCaller's) is what the routes'
  // caches check: a page or a pet asked again while no pet changed is answered from memory.
  it('reads the store once for a page or a pet asked again while no pet changed, again after a create', async () => {
    const roomy = await server.createKey('enterprise', { perMinute: 100, perDay: 1000 });
    const pet = await createPet(server, roomy, { name: 'Rex', categoryId: 1 });
    const reads = async () => {
      const samples = await scrape();
      return ['pets.list', 'pets.get'].map((method) =>
        value(samples, 'petstore_store_query_duration_seconds_count', { method, outcome: 'ok' }),
      );
    };
    const askThrice = async () => {
      for (let i = 0; i < 3; i += 1) {
        expect((await get(server, roomy, '/v1/pets?limit=5')).status).toBe(200);
        expect((await get(server, roomy, `/v1/pets/${pet.id}`)).status).toBe(200);
      }
    };
    const [lists, gets] = await reads();
    await askThrice();
    expect(await reads()).toEqual([lists! + 1, gets! + 1]);
    await createPet(server, roomy, { name: 'Tom', categoryId: 2 });
    await askThrice();
    expect(await reads()).toEqual([lists! + 2, gets! + 2]);
  });

  it('is not there at all when METRICS_TOKEN is unset', async () => {
    const plain = await startTestServer();
    try {
      const response = await fetch(`${plain.url}/metrics`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

// Both stores commit creates in groups: SQLite's writer thread, PostgreSQL's grouped inserts. A
// server process as deployed (main.ts), whose start-up wires the store to the metrics.
// SQLite's writer thread also carries the idempotency purge and the readiness probe's writes.
describe.each([
  { store: 'SQLite', database: sqliteFile, otherWrites: 2 },
  { store: 'PostgreSQL', database: createTemporaryPostgresDatabase, otherWrites: 0 },
])('petstore_store_write_group_size on $store', ({ database, otherWrites }) => {
  it('counts every create once, in the group commit that carried it', async () => {
    const scratch = await database();
    const server = spawnServer({ DATABASE_URL: scratch.url, PORT: '0', METRICS_TOKEN: token });
    try {
      const url = await listening(server);
      const key = await issueKeyIn(scratch.url);
      const groups = async () => {
        const response = await fetch(`${url}/metrics`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        const samples = parse(await response.text());
        return ['_sum', '_count'].map((part) =>
          value(samples, `petstore_store_write_group_size${part}`),
        );
      };
      const [sumBefore = 0, countBefore = 0] = await groups();
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(`${url}/v1/pets`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ name: `p${i}`, categoryId: 1 }),
          }).then((response) => response.status),
        ),
      );
      const [sum = 0, count = 0] = await groups();

      expect(created).toEqual(Array.from({ length: 20 }, () => 201));
      expect(sum - sumBefore).toBeGreaterThanOrEqual(20);
      expect(sum - sumBefore).toBeLessThanOrEqual(20 + otherWrites);
      expect(count - countBefore).toBeGreaterThanOrEqual(1);
      expect(count - countBefore).toBeLessThan(20);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await scratch.drop();
    }
  });
});

describe('petstore_redis_fallback and /readyz while Redis is away', () => {
  it('reads 1 and degraded while Redis is unreachable, 0 and ready once it is back', async () => {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    const { logger, waitFor } = capturedLogger();
    const server = await startTestServer({
      metricsToken: token,
      limiter: (clock) => createRedisRateLimiter({ url: redis.url, clock, logger }),
    });
    const read = async () => {
      const metrics = parse(
        await (
          await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } })
        ).text(),
      );
      const ready = await fetch(`${server.url}/readyz`);
      return {
        fallback: value(metrics, 'petstore_redis_fallback'),
        ready: ready.status,
        body: await ready.json(),
      };
    };
    try {
      expect(await read()).toMatchObject({ fallback: 0, ready: 200, body: { status: 'ready' } });
      await redis.stop();
      await waitFor(/Redis is unreachable/);
      expect(await read()).toEqual({
        fallback: 1,
        ready: 200,
        body: { status: 'degraded', checks: { store: 'ok', rateLimits: 'redis unreachable' } },
      });
      await redis.start();
      await waitFor(/Redis is reachable again/);
      expect(await read()).toMatchObject({ fallback: 0, ready: 200, body: { status: 'ready' } });
    } finally {
      await server.close();
      await redis.stop();
    }
  });
});
