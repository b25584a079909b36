import type { ErrorBody } from '@petstore/types';
import { expect } from 'vitest';
import { expectApiHeaders, expectError } from './contract.js';

/**
 * Asserts the documented answer of an API request while the store cannot be reached or
 * written: 503 with the `ServiceUnavailableErrorBody` (`service_unavailable`), `Retry-After: 5`
 * and the headers every `/v1` response carries (rate limits, request id).
 */
export async function expectStoreUnavailable(response: Response): Promise<ErrorBody> {
  const body = await expectError(response, 503, 'service_unavailable');
  expect(response.headers.get('Retry-After')).toBe('5');
  expectApiHeaders(response);
  return body;
}

/**
 * Asserts what the server's probes say while its store is unreachable (in-memory rate limits):
 * `/readyz` 503 `unavailable`, and `/healthz` (liveness) still 200.
 */
export async function expectNotReadyButAlive(url: string): Promise<void> {
  const ready = await fetch(`${url}/readyz`);
  expect(ready.status).toBe(503);
  expect(await ready.json()).toEqual({
    status: 'unavailable',
    checks: { store: 'unreachable', rateLimits: 'memory' },
  });
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
}
