import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pet } from '@petstore/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  startOtlpReceiver,
} from '../support/otlp-receiver.js';
import {
  issueKeyIn,
  listening,
  logged,
  type ServerProcess,
  spawnServer,
} from '../support/server-process.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

/** A caller's W3C trace context: a trace id and the caller's own span id, sampled. */
function callerContext() {
  const hex = (bytes: number) =>
    Array.from({ length: bytes }, () => Math.floor(Math.random() * 256))
      .map((byte) => byte.toString(16).padStart(2, '0'))
      .join('');
  const traceId = hex(16);
  const parentSpanId = hex(8);
  return { traceId, parentSpanId, traceparent: `00-${traceId}-${parentSpanId}-01` };
}

const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId);

// Each protocol on its own store: both stores' spans and both encodings are read for real.
const cases = [
  { protocol: 'http/json', store: 'sqlite', contentType: 'application/json' },
  { protocol: 'http/protobuf', store: 'postgresql', contentType: 'application/x-protobuf' },
] as const;

describe.each(cases)(
  'tracing over OTLP $protocol, on $store',
  { timeout: 60_000 },
  ({ protocol, store, contentType }) => {
    let receiver: OtlpReceiver;
    let server: ServerProcess;
    let url: string;
    let headers: Record<string, string>;
    let dir: string;
    let database: TemporaryPostgresDatabase | undefined;

    beforeEach(async () => {
      receiver = await startOtlpReceiver();
      dir = mkdtempSync(path.join(tmpdir(), 'petstore-tracing-'));
      database = store === 'postgresql' ? await createTemporaryPostgresDatabase() : undefined;
      const databaseUrl = database?.url ?? `file:${path.join(dir, 'petstore.db')}`;
      server = spawnServer({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        REDIS_URL,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol,
        OTEL_SERVICE_NAME: 'petstore-under-test',
        // Export within 50 ms instead of 5 s: the test waits for the spans, not for a clock.
        OTEL_BSP_SCHEDULE_DELAY: '50',
      });
      url = await listening(server);
      headers = { Authorization: `Bearer ${await issueKeyIn(databaseUrl)}` };
    }, 60_000);

    afterEach(async () => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await server.exited;
      await receiver.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('continues the caller’s trace into one server span with its store and Redis children', async () => {
      const created = await fetch(`${url}/v1/pets`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Traced', categoryId: 1 }),
      });
      const pet = (await created.json()) as Pet;
      const caller = callerContext();
      const response = await fetch(`${url}/v1/pets/${pet.id}`, {
        headers: { ...headers, traceparent: caller.traceparent, tracestate: 'caller=1' },
      });
      expect(response.status).toBe(200);

      const spans = await receiver.waitFor((all) => {
        const root = all.find((span) => span.traceId === caller.traceId && span.kind === SERVER);
        return root !== undefined && childrenOf(all, root).length >= 2;
      });
      const serverSpan = spans.find(
        (span) => span.traceId === caller.traceId && span.kind === SERVER,
      );
      expect(serverSpan).toMatchObject({
        name: 'GET /v1/pets/{petId}',
        parentSpanId: caller.parentSpanId,
        traceState: 'caller=1',
        statusCode: 0,
        attributes: {
          'http.request.method': 'GET',
          'http.route': '/v1/pets/{petId}',
          'http.response.status_code': 200,
          'url.path': `/v1/pets/${pet.id}`,
          'url.scheme': 'http',
          'server.address': '127.0.0.1',
          'client.address': '127.0.0.1',
        },
        resource: { 'service.name': 'petstore-under-test' },
      });
      expect(serverSpan?.attributes).not.toHaveProperty('error.type');

      const children = childrenOf(spans, serverSpan as ReceivedSpan);
      expect(children.find((span) => span.name === 'pets.get')).toMatchObject({
        kind: CLIENT,
        attributes: { 'db.system.name': store, 'db.operation.name': 'pets.get' },
      });
      expect(children.find((span) => span.name === 'rate-limit.minute.consume')).toMatchObject({
        kind: CLIENT,
        attributes: {
          'db.system.name': 'redis',
          'server.address': '127.0.0.1',
          'server.port': 6379,
        },
      });
      expect(receiver.contentTypes.every((type) => type.startsWith(contentType))).toBe(true);

      // The request's log line carries the ids of its server span.
      const lineOf = () =>
        server.logs.find(
          (entry) => (entry.req as { url?: string } | undefined)?.url === `/v1/pets/${pet.id}`,
        );
      await expect.poll(lineOf).toMatchObject({
        trace_id: caller.traceId,
        span_id: serverSpan?.spanId,
        trace_flags: '01',
      });

      // SIGTERM: the process still exits 0 once the SDK has exported what it held.
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    });

    it('starts a new trace for a request without traceparent, and marks a 5xx as an error', async () => {
      // Without traceparent: a root span of a new trace (a 404 under /v1 is a 4xx: no error).
      const missing = await fetch(`${url}/v1/pets/999999`, { headers });
      expect(missing.status).toBe(404);
      const [root] = await receiver
        .waitFor((all) =>
          all.some(
            (span) => span.kind === SERVER && span.attributes['url.path'] === '/v1/pets/999999',
          ),
        )
        .then((all) => all.filter((span) => span.attributes['url.path'] === '/v1/pets/999999'));
      expect(root).toMatchObject({
        name: 'GET /v1/pets/{petId}',
        parentSpanId: '',
        statusCode: 0,
        attributes: { 'http.response.status_code': 404 },
      });
      expect(root?.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(root?.attributes).not.toHaveProperty('error.type');

      // Take the store away: /readyz answers 503, a server error.
      if (database) await database.drop();
      else rmSync(dir, { recursive: true, force: true });
      const caller = callerContext();
      const ready = await fetch(`${url}/readyz`, { headers: { traceparent: caller.traceparent } });
      expect(ready.status).toBe(503);
      const spans = await receiver.waitFor((all) =>
        all.some((span) => span.traceId === caller.traceId && span.kind === SERVER),
      );
      const failed = spans.find((span) => span.traceId === caller.traceId && span.kind === SERVER);
      expect(failed).toMatchObject({
        name: 'GET /readyz',
        statusCode: ERROR,
        attributes: {
          'http.route': '/readyz',
          'http.response.status_code': 503,
          'error.type': '503',
        },
      });
    });
  },
);

describe('the sampler and batching the OTEL_* variables set', { timeout: 60_000 }, () => {
  let receiver: OtlpReceiver;
  let server: ServerProcess;
  let dir: string;

  beforeEach(async () => {
    receiver = await startOtlpReceiver();
    dir = mkdtempSync(path.join(tmpdir(), 'petstore-sampling-'));
  });

  afterEach(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await server.exited;
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports only the traces the sampler keeps, one span per export at a batch size of 1', async () => {
    server = spawnServer({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${path.join(dir, 'petstore.db')}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      // New traces are dropped; a caller's sampled trace is continued.
      OTEL_TRACES_SAMPLER: 'parentbased_always_off',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1',
    });
    const url = await listening(server);
    const unsampled = await fetch(`${url}/readyz`);
    expect(unsampled.status).toBe(200);
    const caller = callerContext();
    const sampled = await fetch(`${url}/readyz`, { headers: { traceparent: caller.traceparent } });
    expect(sampled.status).toBe(200);
    // Both requests answered and logged before the signal.
    const lines = () => server.logs.filter((entry) => entry.msg === 'request completed');
    await expect.poll(() => lines().length).toBe(2);

    // SIGTERM: what is still buffered is exported before the exit.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const spans = receiver.spans;
    expect(spans.map((span) => [span.traceId, span.kind, span.name])).toEqual(
      expect.arrayContaining([
        [caller.traceId, SERVER, 'GET /readyz'],
        [caller.traceId, CLIENT, 'ping'],
      ]),
    );
    expect(spans.filter((span) => span.traceId !== caller.traceId)).toEqual([]);
    expect(receiver.contentTypes).toHaveLength(spans.length);
    // The dropped trace still has ids in its log line, flagged not sampled.
    expect(lines().map((line) => line.trace_flags)).toEqual(['00', '01']);
  });
});

describe('a server without OTEL_* variables', { timeout: 60_000 }, () => {
  const preload = fileURLToPath(
    new URL('../support/record-opentelemetry-imports.mjs', import.meta.url),
  );
  let dir: string;
  const servers: ServerProcess[] = [];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'petstore-no-tracing-'));
  });

  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts a server recording what it resolves under @opentelemetry/, serves one request. */
  async function modulesLoadedBy(env: Record<string, string>): Promise<string[]> {
    const record = path.join(dir, `${servers.length}.txt`);
    const server = spawnServer({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${path.join(dir, `${servers.length}.db`)}`,
      NODE_OPTIONS: `--import=${preload}`,
      RECORD_IMPORTS_FILE: record,
      ...env,
    });
    servers.push(server);
    const url = await listening(server);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    return existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : [];
  }

  it('never loads the OpenTelemetry SDK, and logs no trace ids', async () => {
    expect(await modulesLoadedBy({})).toEqual([]);
    const [server] = servers;
    const line = await logged(server as ServerProcess, 'request completed');
    expect(line).not.toHaveProperty('trace_id');
  });

  it('loads it once an OTEL_* variable asks for traces (the recording works)', async () => {
    const loaded = await modulesLoadedBy({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(loaded.some((url) => url.includes('/@opentelemetry/sdk-trace/'))).toBe(true);
    expect(loaded.some((url) => url.includes('/@opentelemetry/exporter-trace-otlp-proto/'))).toBe(
      true,
    );
    expect(loaded.some((url) => url.includes('/@opentelemetry/exporter-trace-otlp-http/'))).toBe(
      false,
    );
  });
});
