import type { Plan, Quota } from '../domain.js';

/** The plans with fixed quotas (specification, section 8); enterprise quotas are agreed per key. */
export const planQuotas = {
  free: { perMinute: 60, perDay: 1000 },
  pro: { perMinute: 300, perDay: 10000 },
  business: { perMinute: 1000, perDay: 100000 },
} as const satisfies Record<Exclude<Plan, 'enterprise'>, Quota>;

/** Every plan, in the order of the specification's table. */
export const plans = ['free', 'pro', 'business', 'enterprise'] as const satisfies readonly Plan[];

/** The quota callers without a valid key get, per client address: the Free plan's. */
export const anonymousQuota: Quota = planQuotas.free;

/** An enterprise key's agreed numbers; either may be missing (and is then an error). */
export interface CustomQuota {
  perMinute?: number | undefined;
  perDay?: number | undefined;
}

/** A quota that does not fit its plan (thrown by `quotaForPlan`, before anything is stored). */
export class PlanQuotaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanQuotaError';
  }
}

/**
 * The quota of a new key on `plan`. Enterprise requires a custom quota; the other plans
 * take the table's numbers and reject a custom one (so a key's plan never lies about it).
 */
export function quotaForPlan(plan: Plan, custom?: CustomQuota): Quota {
  const hasCustom = custom?.perMinute !== undefined || custom?.perDay !== undefined;
  if (plan !== 'enterprise') {
    if (hasCustom) {
      throw new PlanQuotaError(
        `The ${plan} plan has fixed quotas; only enterprise takes --per-minute/--per-day.`,
      );
    }
    return planQuotas[plan];
  }
  const { perMinute, perDay } = custom ?? {};
  if (perMinute === undefined || perDay === undefined) {
    throw new PlanQuotaError('The enterprise plan needs both --per-minute N and --per-day N.');
  }
  for (const [name, value] of [
    ['per-minute', perMinute],
    ['per-day', perDay],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new PlanQuotaError(`--${name} must be a whole number of at least 1 (got ${value}).`);
    }
  }
  if (perDay < perMinute) {
    throw new PlanQuotaError(`--per-day (${perDay}) must be at least --per-minute (${perMinute}).`);
  }
  return { perMinute, perDay };
}
