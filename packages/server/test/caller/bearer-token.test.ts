import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../src/caller/index.js';

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER  abc', 'abc'],
    ['Bearer', undefined],
    ['Bearer ', undefined],
    ['Basic abc', undefined],
    ['Bearer a b', undefined],
    [undefined, undefined],
  ])('reads %j as %j', (header, expected) => {
    expect(bearerToken(header)).toBe(expected);
  });
});
