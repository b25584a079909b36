import { type Context, ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import type { TraceSamplerName } from '../../src/config/index.js';
import { samplerFor } from '../../src/tracing/sampler.js';

const RECORD_AND_SAMPLED = SamplingDecision.RECORD_AND_SAMPLED;
const NOT_RECORD = SamplingDecision.NOT_RECORD;

/** A caller's context, its span sampled or not, as a `traceparent` header gives it. */
function callerSampled(sampled: boolean): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  });
}

/** The decision for a new span in `parent`'s trace (the root context: a new trace). */
function decision(name: TraceSamplerName, ratio: number, parent: Context): SamplingDecision {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  return samplerFor({ name, ratio }).shouldSample(parent, traceId, 'GET', SpanKind.SERVER, {}, [])
    .decision;
}

describe('the sampler OTEL_TRACES_SAMPLER names', () => {
  it.each([
    // name, ratio, new trace, caller sampled, caller not sampled
    ['always_on', 1, RECORD_AND_SAMPLED, RECORD_AND_SAMPLED, RECORD_AND_SAMPLED],
    ['always_off', 1, NOT_RECORD, NOT_RECORD, NOT_RECORD],
    ['parentbased_always_on', 1, RECORD_AND_SAMPLED, RECORD_AND_SAMPLED, NOT_RECORD],
    ['parentbased_always_off', 1, NOT_RECORD, RECORD_AND_SAMPLED, NOT_RECORD],
    ['traceidratio', 0, NOT_RECORD, NOT_RECORD, NOT_RECORD],
    ['traceidratio', 1, RECORD_AND_SAMPLED, RECORD_AND_SAMPLED, RECORD_AND_SAMPLED],
    ['parentbased_traceidratio', 0, NOT_RECORD, RECORD_AND_SAMPLED, NOT_RECORD],
    ['parentbased_traceidratio', 1, RECORD_AND_SAMPLED, RECORD_AND_SAMPLED, NOT_RECORD],
  ] as const)(
    '%s (ratio %d) decides for a new trace, then follows or ignores the caller',
    (name, ratio, fresh, underSampled, underUnsampled) => {
      expect(decision(name, ratio, ROOT_CONTEXT)).toBe(fresh);
      expect(decision(name, ratio, callerSampled(true))).toBe(underSampled);
      expect(decision(name, ratio, callerSampled(false))).toBe(underUnsampled);
    },
  );
});
