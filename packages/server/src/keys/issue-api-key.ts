import type { ApiKeyRecord, Plan } from '../domain.js';
import type { ApiKeyRepository } from '../storage/index.js';
import { generateApiKey } from './api-key.js';
import { type CustomQuota, quotaForPlan } from './plans.js';

export interface IssueApiKeyOptions {
  plan: Plan;
  /** Enterprise only (and required there): its agreed quota. Other plans take the table's. */
  quota?: CustomQuota | undefined;
  /** A label to recognise the key by (who holds it). */
  name?: string | null | undefined;
}

export interface IssuedApiKey {
  /** The raw key: show it once; it is never stored and cannot be recovered. */
  raw: string;
  /** What was stored (the hash is not part of it). */
  record: ApiKeyRecord;
}

/**
 * Issues a new API key: generates it, stores only its hash with the plan's quota, and returns
 * the raw key once. The one way new keys come into being (`rotateApiKey` replaces one): the
 * keys CLI, the mock's sandbox key and the tests all go through here. Throws (before storing anything) when the quota does not fit
 * the plan.
 *
 * @example
 * ```ts
 * const { raw, record } = await issueApiKey(storage.keys, { plan: 'free', name: 'my laptop' });
 * console.log(`key ${record.id}: ${raw}`); // shown this once
 * ```
 */
export async function issueApiKey(
  keys: Pick<ApiKeyRepository, 'create'>,
  { plan, quota, name = null }: IssueApiKeyOptions,
): Promise<IssuedApiKey> {
  const limits = quotaForPlan(plan, quota);
  const key = generateApiKey();
  const record = await keys.create({
    hash: key.hash,
    displayPrefix: key.displayPrefix,
    name,
    plan,
    ...limits,
  });
  return { raw: key.raw, record };
}
