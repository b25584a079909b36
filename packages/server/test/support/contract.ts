import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorBody, ErrorCode } from '@petstore/types';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

/**
 * A second, independent check of responses against the bundled contract, for the answers the
 * server's own response validation cannot see (those it gives before an operation is matched:
 * 401, unknown paths, 405, 413, 415, malformed JSON).
 */
const require = createRequire(import.meta.url);
/** The bundled description (`@petstore/types/openapi.json`), parsed. */
export const bundle = JSON.parse(
  readFileSync(require.resolve('@petstore/types/openapi.json'), 'utf8'),
);
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addSchema(bundle, 'openapi');

/** The Ajv 2020 validator of the schema at a JSON Pointer of the bundle (`/components/schemas/Pet`). */
export function validator(pointer: string) {
  const validate = ajv.getSchema(`openapi#${pointer}`);
  if (!validate) throw new Error(`no schema at ${pointer}`);
  return validate;
}

/** The error body schema of each status: API 1.0's, or those of the statuses 1.1 added. */
const errorSchemas = {
  general: validator('/components/schemas/ErrorBody'),
  409: validator('/components/schemas/IdempotencyErrorBody'),
  422: validator('/components/schemas/IdempotencyErrorBody'),
  503: validator('/components/schemas/ServiceUnavailableErrorBody'),
};

/** Asserts the response is the documented Error body with this status and code. */
export async function expectError(
  response: Response,
  status: number,
  code: ErrorCode,
): Promise<ErrorBody> {
  const body = (await response.json()) as ErrorBody;
  const errorSchema =
    status === 409 || status === 422 || status === 503
      ? errorSchemas[status]
      : errorSchemas.general;
  expect(errorSchema(body), JSON.stringify(errorSchema.errors)).toBe(true);
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(body).toMatchObject({ status, code });
  return body;
}

/** The IETF RateLimit fields of a response, parsed (draft-ietf-httpapi-ratelimit-headers-10). */
export function rateLimitFields(response: Response) {
  const policy = /^"minute";q=(\d+);w=60, "day";q=(\d+);w=86400$/.exec(
    response.headers.get('RateLimit-Policy') ?? '',
  );
  const state = /^"minute";r=(\d+);t=(\d+), "day";r=(\d+);t=(\d+)$/.exec(
    response.headers.get('RateLimit') ?? '',
  );
  expect(policy, 'RateLimit-Policy').not.toBeNull();
  expect(state, 'RateLimit').not.toBeNull();
  const [, minuteQuota, dayQuota] = policy!.map(Number);
  const [, minuteLeft, minuteT, dayLeft, dayT] = state!.map(Number);
  return {
    minute: { q: minuteQuota!, r: minuteLeft!, t: minuteT! },
    day: { q: dayQuota!, r: dayLeft!, t: dayT! },
  };
}

/**
 * Asserts the headers every `/v1` response carries: X-RateLimit-* (integers), the IETF
 * RateLimit fields agreeing with them (the X-RateLimit-* trio is the q and r of one of the two
 * windows), and X-Request-Id.
 */
export function expectApiHeaders(response: Response): void {
  for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
    expect(response.headers.get(name), name).toMatch(/^\d+$/);
  }
  const { minute, day } = rateLimitFields(response);
  const described = {
    q: Number(response.headers.get('X-RateLimit-Limit')),
    r: Number(response.headers.get('X-RateLimit-Remaining')),
  };
  expect([minute, day].map(({ q, r }) => ({ q, r }))).toContainEqual(described);
  expect(minute.t).toBeGreaterThanOrEqual(1);
  expect(minute.t).toBeLessThanOrEqual(60);
  expect(day.t).toBeGreaterThanOrEqual(1);
  expect(day.t).toBeLessThanOrEqual(86_400);
  expect(response.headers.get('X-Request-Id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
}

/** The deprecation trio every answer of `GET /v1/pets/{petId}` carries (RFC 9745, RFC 8594). */
export function expectDeprecationHeaders(response: Response): void {
  expect(response.headers.get('Deprecation')).toBe('@1795219200');
  expect(response.headers.get('Sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  expect(response.headers.get('Link')).toBe(
    bundle.components.headers.DeprecationLink.example as string,
  );
}
