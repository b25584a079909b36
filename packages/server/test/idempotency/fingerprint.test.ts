import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../src/idempotency/index.js';

/**
 * The same JSON value with every object's keys in reverse order, at every depth (integer-like
 * keys excepted: JavaScript always lists them first, in ascending order).
 */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .reverse()
        .map((key) => [key, reordered((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

describe('fingerprintOf', () => {
  it('is the fingerprint stored records were made with (SHA-256 of the canonical JSON, base64url)', () => {
    // A record written by an earlier version must still match its retry after an upgrade.
    expect(fingerprintOf({ status: 'available', name: 'Rex', categoryId: 1 })).toBe(
      createHash('sha256')
        .update('{"categoryId":1,"name":"Rex","status":"available"}')
        .digest('base64url'),
    );
    expect(fingerprintOf({ name: 'Rex', categoryId: 1 })).toBe(
      'O1PRdURm30j1cmaMAJn4nksw4T_GDOQTtEx96Q7VLIQ',
    );
  });

  it('does not depend on the order of object keys, at any depth', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(fingerprintOf(reordered(value))).toBe(fingerprintOf(value));
      }),
    );
  });
});
