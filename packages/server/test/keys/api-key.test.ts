import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from '../../src/keys/index.js';

describe('API keys', () => {
  it('are psk_ plus 43 base64url characters (32 random bytes), each one new', () => {
    const keys = Array.from({ length: 100 }, () => generateApiKey());
    for (const key of keys) {
      expect(key.raw).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(key.raw.slice(4), 'base64url')).toHaveLength(32);
      expect(key.displayPrefix).toBe(key.raw.slice(0, 8));
    }
    expect(new Set(keys.map((key) => key.raw)).size).toBe(100);
  });

  it('are stored as their hex SHA-256 only', () => {
    const key = generateApiKey();
    expect(key.hash).toBe(createHash('sha256').update(key.raw).digest('hex'));
    expect(hashApiKey(key.raw)).toBe(key.hash);
  });

  it.each([
    [`psk_${'a'.repeat(43)}`, true],
    [`psk_${'a'.repeat(42)}`, false],
    [`psk_${'a'.repeat(44)}`, false],
    [`psk_${'a'.repeat(42)}=`, false],
    [`PSK_${'a'.repeat(43)}`, false],
    [`${'a'.repeat(47)}`, false],
  ])('recognise %s as well formed: %s', (token, expected) => {
    expect(isWellFormedApiKey(token)).toBe(expected);
  });
});
