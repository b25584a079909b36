import { describe, expect, it } from 'vitest';
import { description } from './description.js';

const { headers, parameters } = description.components;

/** The pattern of a header or parameter schema, compiled with or without the `u` flag. */
function patternOf(schema: { pattern: string }, flags: string): RegExp {
  return new RegExp(schema.pattern, flags);
}

const uuid = '8e03978e-40d5-43e8-bc93-6894a57f9324';

describe('the syntax of the headers', () => {
  // Every pattern means the same with and without the `u` flag: validators differ in which
  // they use (ajv: `u`; generated zod code: none).
  describe.each(['', 'u'])('with flags "%s"', (flags) => {
    it.each([
      [`"${uuid}"`, true],
      [uuid, true],
      ['"a"', true],
      ['x'.repeat(255), true],
      [`"${'x'.repeat(255)}"`, true],
      ['', false],
      ['""', false],
      ['x'.repeat(256), false],
      ['two words', false],
      ['"two words"', false],
      ['"a"b"', false],
      ['back\\slash', false],
      ['"unclosed', false],
      ['tab\there', false],
      ['café', false],
    ])('Idempotency-Key %j is accepted: %s', (value, accepted) => {
      const schema = parameters.IdempotencyKey.schema;
      expect(patternOf(schema, flags).test(value) && value.length <= schema.maxLength).toBe(
        accepted,
      );
    });

    it.each([
      ['"5f3c9a1e0b7d4c2a"', true],
      ['W/"5f3c9a1e0b7d4c2a"', true],
      ['"a", W/"b" ,"c"', true],
      ['*', true],
      ['""', true],
      ['5f3c9a1e0b7d4c2a', false],
      ['"a" "b"', false],
      ['*, "a"', false],
      ['"a",', false],
    ])('If-None-Match %j is accepted: %s', (value, accepted) => {
      expect(patternOf(parameters.IfNoneMatch.schema, flags).test(value)).toBe(accepted);
    });
  });

  it('gives the RateLimit fields of a Free key in the same terms as X-RateLimit-*', () => {
    const policy = headers['RateLimit-Policy'].example as string;
    const limit = headers.RateLimit.example as string;
    expect(policy).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
    expect(policy).toMatch(patternOf(headers['RateLimit-Policy'].schema, 'u'));
    expect(limit).toMatch(patternOf(headers.RateLimit.schema, 'u'));
    const [minute, day] = [...limit.matchAll(/"(\w+)";r=(\d+);t=(\d+)/g)].map((m) => ({
      name: m[1],
      remaining: Number(m[2]),
      resetIn: Number(m[3]),
    }));
    expect([minute?.name, day?.name]).toEqual(['minute', 'day']);
    // The X-RateLimit-* examples describe the minute window (fewest left), 30 s after
    // midnight UTC: both windows reset on their boundaries.
    const reset = headers['X-RateLimit-Reset'].example as number;
    const now = reset - (minute?.resetIn ?? NaN);
    expect(headers['X-RateLimit-Limit'].example).toBe(60);
    expect(headers['X-RateLimit-Remaining'].example).toBe(minute?.remaining);
    expect(reset % 60).toBe(0);
    expect((now + (day?.resetIn ?? NaN)) % 86_400).toBe(0);
    expect(day?.remaining).toBe(999);
  });

  it('spells the bearer challenge of RFC 6750 §3', () => {
    expect(headers['WWW-Authenticate'].schema.enum).toEqual([
      'Bearer realm="petstore"',
      'Bearer realm="petstore", error="invalid_token"',
    ]);
  });

  it('writes no \\u escape in any text: generators turn them into raw characters', () => {
    // hey-api's zod patterns and JSDoc comments both decode `\\uXXXX`: a control byte, or a
    // lone surrogate that comes out as U+FFFD.
    const escapes = JSON.stringify(description).match(/\\\\u[0-9A-Fa-f]{4}/g);
    expect(escapes).toBeNull();
  });

  it('spells every character class of every pattern in ASCII, with \\x escapes', () => {
    const patterns: string[] = [];
    JSON.stringify(description, (key, value: unknown) => {
      if (key === 'pattern' && typeof value === 'string') patterns.push(value);
      return value;
    });
    expect(patterns.length).toBeGreaterThanOrEqual(10);
    for (const pattern of patterns) {
      expect(pattern).toMatch(/^[\x20-\x7E]+$/);
      expect(pattern).not.toMatch(/\\u|\\p\{/);
    }
  });
});
