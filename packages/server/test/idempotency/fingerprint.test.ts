import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprintOf } from '../../src/idempotency/index.js';

/** The same JSON value with every object's keys in another order (reversed, at every depth). */
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

  it('does not depend on key order or spacing, and tells different values apart', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (value, other) => {
        const text = JSON.stringify(value);
        const parsed: unknown = JSON.parse(JSON.stringify(reordered(JSON.parse(text)), null, 2));
        expect(fingerprintOf(parsed)).toBe(fingerprintOf(value));
        if (canonicalJson(other) !== canonicalJson(value)) {
          expect(fingerprintOf(other)).not.toBe(fingerprintOf(value));
        }
      }),
    );
  });
});
