import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { SpanStatusCode } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { observeResponses } from '../../src/http/index.js';
import { serverSpans } from '../../src/tracing/server-spans.js';

const exporter = new InMemorySpanExporter();
const tracer = new TracerProvider({
  spanProcessors: [new SimpleSpanProcessor({ exporter })],
}).getTracer('server-spans-test');

let server: Server;
let port: number;
let answered = 0;
let unansweredTaken = 0;
/** Called when a request reaches `/hang`, which never answers. */
let hung = () => {};

beforeAll(async () => {
  // Composed as the server is: a `close` listener of the HTTP server's own before the app (as
  // its in-flight table has), then the span first in the app and the response observers (the
  // request log, the metrics) after it.
  const app = express();
  app.use(serverSpans(tracer).handler);
  app.use(observeResponses(() => (answered += 1)));
  app.get('/v1/pets/:petId', (_req, res) => void res.json({ id: 1 }));
  app.get('/hang', () => hung());
  server = createServer((req, res) => {
    res.on('close', () => (unansweredTaken += 1));
    app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => exporter.reset());

describe('server spans', () => {
  it('end when the response is sent, named by method and route, with its status', async () => {
    const [answeredBefore, takenBefore] = [answered, unansweredTaken];
    for (let i = 0; i < 3; i++)
      expect((await fetch(`http://127.0.0.1:${port}/v1/pets/1`)).status).toBe(200);
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(3);
    for (const span of exporter.getFinishedSpans()) {
      expect(span.name).toBe('GET /v1/pets/:petId');
      expect(span.attributes).toMatchObject({
        'http.request.method': 'GET',
        'http.response.status_code': 200,
        'url.path': '/v1/pets/1',
      });
      expect(span.attributes).not.toHaveProperty('error.type');
    }
    // The observers ran at `finish`, and the server's own `close` listener ran beside the span's.
    expect(answered - answeredBefore).toBe(3);
    expect(unansweredTaken - takenBefore).toBe(3);
  });

  it('end as response_incomplete, with an error status, when the connection closes first', async () => {
    const taken = unansweredTaken;
    const arrived = new Promise<void>((resolve) => (hung = resolve));
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('GET /hang HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await arrived;
    socket.destroy();
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(1);
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes).toMatchObject({ 'error.type': 'response_incomplete' });
    expect(span?.attributes).not.toHaveProperty('http.response.status_code');
    expect(span?.status).toMatchObject({
      code: SpanStatusCode.ERROR,
      message: 'the connection closed first',
    });
    expect(unansweredTaken).toBe(taken + 1);
  });
});
