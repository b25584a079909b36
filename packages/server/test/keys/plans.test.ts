import { describe, expect, it } from 'vitest';
import { planQuotas, quotaForPlan } from '../../src/keys/index.js';

describe('plans', () => {
  it('carry the quotas of the specification (section 8)', () => {
    expect(planQuotas).toEqual({
      free: { perMinute: 60, perDay: 1000 },
      pro: { perMinute: 300, perDay: 10000 },
      business: { perMinute: 1000, perDay: 100000 },
    });
  });

  it('give enterprise keys their custom quota', () => {
    expect(quotaForPlan('enterprise', { perMinute: 2000, perDay: 500000 })).toEqual({
      perMinute: 2000,
      perDay: 500000,
    });
  });

  it.each([
    ['enterprise', {}, 'The enterprise plan needs both --per-minute N and --per-day N.'],
    [
      'enterprise',
      { perMinute: 1.5, perDay: 10 },
      '--per-minute must be a whole number of at least 1 (got 1.5).',
    ],
    [
      'free',
      { perDay: 5 },
      'The free plan has fixed quotas; only enterprise takes --per-minute/--per-day.',
    ],
  ] as const)('refuse %s with %j', (plan, custom, message) => {
    expect(() => quotaForPlan(plan, custom)).toThrow(message);
  });
});
