/** API keys: their form and hash, the plans and their quotas, issuing and rotating a key. */
export {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  type GeneratedApiKey,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from './api-key.js';
export { type IssueApiKeyOptions, type IssuedApiKey, issueApiKey } from './issue-api-key.js';
export { isKeyValidAt, type KeyState, keyStateAt } from './key-state.js';
export {
  type ApiKeyRotation,
  DEFAULT_ROTATION_GRACE_SECONDS,
  MAX_ROTATION_GRACE_SECONDS,
  type RotateApiKeyOptions,
  type RotatedApiKey,
  rotateApiKey,
} from './rotate-api-key.js';
export { anonymousQuota, PlanQuotaError, planQuotas, plans, quotaForPlan } from './plans.js';
