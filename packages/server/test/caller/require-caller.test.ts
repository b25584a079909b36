import { describe, expect, it } from 'vitest';
import { operationsOpenWithoutKey, requireCaller } from '../../src/caller/index.js';
import { loadDescription } from '../../src/contract.js';

/** A description with the contract's global requirement and one operation of its own. */
const describedWith = (operation: Record<string, unknown>) => ({
  security: [{ bearerAuth: [] }],
  paths: { '/pets': { get: {}, post: operation, parameters: [] } },
});

describe('operationsOpenWithoutKey', () => {
  it('finds none in the contract: every operation requires bearerAuth', () => {
    expect(operationsOpenWithoutKey(loadDescription())).toEqual([]);
  });

  it.each([
    ['an empty requirement makes it public', { security: [{}] }],
    ['no requirement at all', { security: [] }],
    ['an alternative without the key', { security: [{ bearerAuth: [] }, { basicAuth: [] }] }],
    ['another scheme only', { security: [{ basicAuth: [] }] }],
  ])('names an operation when %s', (_case, operation) => {
    expect(operationsOpenWithoutKey(describedWith(operation))).toEqual(['POST /pets']);
  });

  it('names every operation when the description has no global requirement', () => {
    expect(operationsOpenWithoutKey({ paths: { '/pets': { get: {} } } })).toEqual(['GET /pets']);
  });

  it('counts the key in every alternative as required, and ignores path-level fields', () => {
    const operation = { security: [{ bearerAuth: [], other: [] }, { bearerAuth: [] }] };
    expect(operationsOpenWithoutKey(describedWith(operation))).toEqual([]);
  });
});

describe('requireCaller', () => {
  it('refuses to be built over a contract with an operation open without a key', () => {
    expect(() => requireCaller(describedWith({ security: [{}] }))).toThrow(
      /operations that do not require bearerAuth: POST \/pets/,
    );
  });

  it('is built over the contract', () => {
    expect(requireCaller(loadDescription())).toBeTypeOf('function');
  });
});
