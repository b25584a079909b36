import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace';
import type { TraceSampler } from '../config/index.js';

/**
 * The SDK sampler `OTEL_TRACES_SAMPLER` names, as the specification defines each
 * (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/#general-sdk-configuration):
 * a `parentbased_…` one follows the caller's sampled flag and decides only for new traces.
 *
 * @example
 * ```ts
 * samplerFor({ name: 'parentbased_traceidratio', ratio: 0.1 }); // a tenth of new traces
 * ```
 */
export function samplerFor({ name, ratio }: TraceSampler): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}
