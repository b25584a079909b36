import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { findMalformedString, isWellFormedDeep } from '../../src/validation/index.js';
import { expectApiHeaders, expectError } from '../support/contract.js';
import { get, postPet } from '../support/requests.js';

describe('findMalformedString', () => {
  it.each([
    ['a well-formed string', 'Rex', undefined],
    ['a surrogate pair (an emoji)', '🐕 Rex', undefined],
    ['a lone high surrogate', 'R\ud800x', ''],
    ['a lone low surrogate', '\udc00', ''],
    ['a reversed pair', '\udc00\ud800', ''],
    ['a nested value', { a: [1, { name: 'x\ud83d' }] }, 'a/1/name'],
    ['a property name', { ['\ud800']: 1 }, '(a property name)'],
    ['numbers and null', { a: 1, b: null, c: true }, undefined],
  ])('finds %s', (_case, value, expected) => {
    expect(findMalformedString(value)).toBe(expected);
  });
});

describe('isWellFormedDeep', () => {
  // Strings of characters, lone halves of a pair, and pairs, so that halves may meet in order,
  // out of order, or alone; in values and property names, nested in objects and arrays.
  const text = fc.string({
    unit: fc.constantFrom('a', 'é', '\ud800', '\udc00', '\udbff', '\udfff', '🐕'),
    maxLength: 6,
  });
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    ),
  })).value;

  it('says yes exactly when findMalformedString finds nothing', () => {
    const answers = { yes: 0, no: 0 };
    fc.assert(
      fc.property(json, (value) => {
        const wellFormed = isWellFormedDeep(value);
        expect(wellFormed).toBe(findMalformedString(value) === undefined);
        answers[wellFormed ? 'yes' : 'no'] += 1;
      }),
      { numRuns: 2000 },
    );
    // Both answers came up often, so the property compared both.
    expect(Math.min(answers.yes, answers.no)).toBeGreaterThan(200);
  });

  it('walks a body nested 100,000 levels deep without recursion', () => {
    let deep: unknown = '\ud800';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(isWellFormedDeep(deep)).toBe(false);
  });
});

describe('strings the API accepts are well-formed Unicode', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    key = await server.createKey('pro');
  });
  afterAll(() => server.close());

  const rawCreate = (jsonText: string) => postPet(server, key, jsonText);
  const storedCount = async () => (await server.storage.pets.list({ limit: 1000 })).length;

  it.each([
    ['one lone surrogate', '\\ud800'],
    ['two lone surrogates', '\\ud800\\ud800'],
    ['100 lone surrogates (once stored, they poisoned every list)', '\\ud800'.repeat(100)],
    ['a lone low surrogate after text', 'Rex\\udfff'],
  ])('refuses a name of %s with 400 naming the field, and stores nothing', async (_case, name) => {
    const before = await storedCount();
    const response = await rawCreate(`{"name":"${name}","categoryId":1}`);
    expectApiHeaders(response);
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.message).toBe(
      'request/body/name must be well-formed Unicode: it holds a lone UTF-16 surrogate.',
    );
    expect(await storedCount()).toBe(before);
    expect((await get(server, key, '/v1/pets?limit=100')).status).toBe(200);
  });

  it('refuses a lone surrogate in a property name', async () => {
    const error = await expectError(
      await rawCreate('{"name":"Rex","categoryId":1,"\\ud800":1}'),
      400,
      'invalid_request',
    );
    expect(error.message).toMatch(/^request\/body\/\(a property name\) must be well-formed/);
  });

  it('keeps a name with surrogate pairs exactly, escaped or not', async () => {
    for (const text of ['"🐕 Rex"', '"\\ud83d\\udc15 Rex"']) {
      const response = await rawCreate(`{"name":${text},"categoryId":1}`);
      expect(response.status).toBe(201);
      const pet = (await response.json()) as { id: number; name: string };
      expect(pet.name).toBe('🐕 Rex');
      const again = await get(server, key, `/v1/pets/${pet.id}`);
      expect(((await again.json()) as { name: string }).name).toBe('🐕 Rex');
    }
  });
});
