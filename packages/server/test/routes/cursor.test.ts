import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/routes/cursor.js';

describe('page cursors', () => {
  it.each([1, 20, 9007199254740991])('round-trip id %d', (id) => {
    expect(decodeCursor(encodeCursor(id))).toBe(id);
    expect(encodeCursor(id)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['not base64url of a number', 'abc'],
    ['id 0', encodeCursor(0)],
    ['a leading zero', Buffer.from('01').toString('base64url')],
    ['beyond 2^53−1', Buffer.from('9007199254740992').toString('base64url')],
    ['a non-canonical encoding', `${encodeCursor(10)}A`],
    ['empty', ''],
  ])('are rejected when %s', (_case, cursor) => {
    expect(decodeCursor(cursor)).toBeUndefined();
  });
});
