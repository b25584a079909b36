/** API keys: their form and hash, the plans and their quotas, and issuing a key. */
export {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  type GeneratedApiKey,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from './api-key.js';
export { type IssueApiKeyOptions, type IssuedApiKey, issueApiKey } from './issue-api-key.js';
export { anonymousQuota, PlanQuotaError, planQuotas, plans, quotaForPlan } from './plans.js';
