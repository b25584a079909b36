import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/logger/index.js';
import { startTracing, type Tracing } from '../../src/tracing/index.js';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';

let receiver: OtlpReceiver;
let tracing: Tracing;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // This test file's own process: the exporter reads the standard variable, as in production.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  const config = loadConfig({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
  });
  if (config.tracing === undefined)
    throw new Error('expected the OTEL_* variables to turn tracing on');
  tracing = await startTracing(config.tracing, {
    databaseUrl: 'file::memory:',
    redisUrl: undefined,
  });
});

afterAll(async () => {
  await tracing.shutdown();
  await receiver.close();
});

describe('the log mixin', () => {
  it('puts the active span’s ids on every line logged inside it, and nothing outside', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('info', {
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
      mixin: tracing.logMixin,
    });
    let ids = { traceId: '', spanId: '' };
    trace.getTracer('test').startActiveSpan('request', (span) => {
      ids = span.spanContext();
      logger.error('unexpected error');
      span.end();
    });
    logger.info('listening');

    expect(lines[0]).toMatchObject({
      msg: 'unexpected error',
      trace_id: ids.traceId,
      span_id: ids.spanId,
      trace_flags: '01',
    });
    expect(lines[1]).not.toHaveProperty('trace_id');
  });

  it('exports what is still buffered on shutdown', async () => {
    let traceId = '';
    trace.getTracer('test').startActiveSpan('last', (span) => {
      traceId = span.spanContext().traceId;
      span.end();
    });
    await tracing.shutdown();
    expect(receiver.spans.find((span) => span.traceId === traceId)).toMatchObject({ name: 'last' });
  });
});
