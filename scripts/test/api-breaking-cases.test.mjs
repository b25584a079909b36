// The cases of issue 25, each a base/head pair with its expected verdict: changes the gate
// used to miss, changes it used to cry wolf on, and the rules they call for.
import { describe, expect, it } from 'vitest';
import { findBreakingChanges } from '../api-breaking/compare.mjs';
import { patternCovers } from '../api-breaking/schemas/patterns.mjs';

/**
 * A small description: `POST /things` takes `request` and answers 200 with `response`;
 * `GET /things/{thingId}` takes `parameters`; `components.schemas` is `schemas`.
 */
function api({ request = {}, response = {}, parameters = [], schemas = {}, webhooks, media } = {}) {
  const doc = {
    openapi: '3.1.0',
    info: { title: 'Things', version: '1.0.0' },
    paths: {
      '/things': {
        post: {
          operationId: 'createThing',
          requestBody: {
            required: true,
            content: media ?? { 'application/json': { schema: request } },
          },
          responses: {
            200: { description: 'ok', content: { 'application/json': { schema: response } } },
          },
        },
      },
      '/things/{thingId}': {
        get: {
          operationId: 'getThing',
          parameters: [
            { name: 'thingId', in: 'path', required: true, schema: { type: 'string' } },
            ...parameters,
          ],
          responses: { 200: { description: 'ok' } },
        },
      },
    },
    components: { schemas },
  };
  if (webhooks) doc.webhooks = webhooks;
  return doc;
}

const query = (name, schema, extra = {}) => ({ name, in: 'query', schema, ...extra });
const ref = (name) => ({ $ref: `#/components/schemas/${name}` });
const object = (properties, required = []) => ({ type: 'object', properties, required });
const str = { type: 'string' };

/** A webhook that sends `body` and reads an answer of `answer`. */
const webhook = (body, answer = {}) => ({
  thingAdded: {
    post: {
      operationId: 'thingAdded',
      requestBody: { required: true, content: { 'application/json': { schema: body } } },
      responses: {
        200: { description: 'ok', content: { 'application/json': { schema: answer } } },
      },
    },
  },
});

/** [case, base, head, the rule expected, whether the gate fails] */
const cases = [
  // Missed before: a consumer breaks.
  [
    'a parameter default changed',
    api({ parameters: [query('limit', { type: 'integer', default: 20 })] }),
    api({ parameters: [query('limit', { type: 'integer', default: 50 })] }),
    'request-default-changed',
    true,
  ],
  [
    'a parameter default added',
    api({ parameters: [query('limit', { type: 'integer' })] }),
    api({ parameters: [query('limit', { type: 'integer', default: 50 })] }),
    'request-default-changed',
    true,
  ],
  [
    'a parameter default removed',
    api({ parameters: [query('limit', { type: 'integer', default: 20 })] }),
    api({ parameters: [query('limit', { type: 'integer' })] }),
    'request-default-changed',
    true,
  ],
  [
    'a change inside an allOf base reached through $ref (request)',
    api({
      request: { allOf: [ref('Base'), object({ name: str })] },
      schemas: { Base: object({ code: { type: 'string', maxLength: 10 } }) },
    }),
    api({
      request: { allOf: [ref('Base'), object({ name: str })] },
      schemas: { Base: object({ code: { type: 'string', maxLength: 5 } }) },
    }),
    'request-bound-tightened',
    true,
  ],
  [
    'a change inside a oneOf alternative reached through $ref (response)',
    api({
      response: { oneOf: [ref('Cat'), ref('Dog')] },
      schemas: {
        Cat: object({ lives: { type: 'integer' } }, ['lives']),
        Dog: object({ bark: str }),
      },
    }),
    api({
      response: { oneOf: [ref('Cat'), ref('Dog')] },
      schemas: { Cat: object({ lives: { type: 'integer' } }), Dog: object({ bark: str }) },
    }),
    'response-alternative-added',
    true,
  ],
  [
    'a map value type changed (response)',
    api({ response: { type: 'object', additionalProperties: { type: 'integer' } } }),
    api({ response: { type: 'object', additionalProperties: { type: 'string' } } }),
    'response-type-added',
    true,
  ],
  [
    'a required property dropped from map values (response)',
    api({ response: { type: 'object', additionalProperties: object({ id: str }, ['id']) } }),
    api({ response: { type: 'object', additionalProperties: object({ id: str }) } }),
    'response-property-optional',
    true,
  ],
  [
    'a map value schema added (request)',
    api({ request: { type: 'object' } }),
    api({ request: { type: 'object', additionalProperties: { type: 'integer' } } }),
    'request-additional-properties-restricted',
    true,
  ],
  [
    'a webhook sends a new enum value',
    api({ webhooks: webhook(object({ kind: { enum: ['a'] } })) }),
    api({ webhooks: webhook(object({ kind: { enum: ['a', 'b'] } })) }),
    'response-enum-value-added',
    true,
  ],
  ['a webhook removed', api({ webhooks: webhook(object({})) }), api({}), 'webhook-removed', true],
  [
    'a webhook no longer accepts an answer it accepted',
    api({ webhooks: webhook({}, { type: ['string', 'null'] }) }),
    api({ webhooks: webhook({}, { type: 'string' }) }),
    'request-type-removed',
    true,
  ],
  [
    'an x-extensible-enum value removed (request)',
    api({ request: object({ kind: { type: 'string', 'x-extensible-enum': ['a', 'b'] } }) }),
    api({ request: object({ kind: { type: 'string', 'x-extensible-enum': ['a'] } }) }),
    'request-extensible-enum-value-removed',
    true,
  ],
  [
    'a request media type that gains a schema',
    api({ media: { 'application/json': {} } }),
    api({ media: { 'application/json': { schema: object({ a: str }, ['a']) } } }),
    'request-type-added',
    true,
  ],
  [
    'a request media type removed',
    api({ media: { 'application/json': {}, 'text/plain': {} } }),
    api({ media: { 'application/json': {} } }),
    'request-media-type-removed',
    true,
  ],
  // False alarms before: nothing breaks.
  [
    'a required read-only property (request)',
    api({ request: object({ name: str }) }),
    api({ request: object({ id: { ...str, readOnly: true }, name: str }, ['id']) }),
    null,
    false,
  ],
  [
    'a write-only property dropped from a response',
    api({ response: object({ name: str, secret: { ...str, writeOnly: true } }, ['secret']) }),
    api({ response: object({ name: str }) }),
    null,
    false,
  ],
  [
    'a path variable renamed',
    api(),
    (() => {
      const d = api();
      d.paths['/things/{id}'] = d.paths['/things/{thingId}'];
      delete d.paths['/things/{thingId}'];
      d.paths['/things/{id}'].get.parameters[0].name = 'id';
      return d;
    })(),
    'path-variable-renamed',
    false,
  ],
  [
    'a primitive query parameter style/explode change',
    api({ parameters: [query('q', str)] }),
    api({ parameters: [query('q', str, { style: 'form', explode: false })] }),
    'parameter-serialisation-changed',
    false,
  ],
  [
    'a loosened pattern (request)',
    api({ request: object({ code: { type: 'string', pattern: '^[a-z]{3}$' } }) }),
    api({ request: object({ code: { type: 'string', pattern: '^[a-zA-Z0-9]{2,5}$' } }) }),
    'request-pattern-loosened',
    false,
  ],
  [
    'an alternative added to a request oneOf',
    api({ request: { oneOf: [ref('Cat')] }, schemas: { Cat: object({ lives: str }) } }),
    api({
      request: { oneOf: [ref('Cat'), ref('Dog')] },
      schemas: { Cat: object({ lives: str }), Dog: object({ bark: str }) },
    }),
    'request-alternative-added',
    false,
  ],
  [
    'a title given to an allOf member',
    api({ request: { allOf: [object({ a: str })] } }),
    api({ request: { allOf: [{ ...object({ a: str }), title: 'A' }] } }),
    'request-documentation-changed',
    false,
  ],
  [
    'a schema split into an allOf of a shared base',
    api({ request: object({ a: str, b: str }, ['a']) }),
    api({
      request: { allOf: [ref('Base'), object({ b: str })] },
      schemas: { Base: object({ a: str }, ['a']) },
    }),
    null,
    false,
  ],
  [
    'a webhook sends a new optional property',
    api({ webhooks: webhook(object({ a: str })) }),
    api({ webhooks: webhook(object({ a: str, b: str })) }),
    'response-property-added',
    false,
  ],
  [
    'an x-extensible-enum value added (response)',
    api({ response: object({ kind: { type: 'string', 'x-extensible-enum': ['a'] } }) }),
    api({ response: object({ kind: { type: 'string', 'x-extensible-enum': ['a', 'b'] } }) }),
    'response-extensible-enum-value-added',
    false,
  ],
  [
    'a request media type widened to a range',
    api({ media: { 'application/json': { schema: str } } }),
    api({ media: { 'application/*': { schema: str } } }),
    'request-media-type-added',
    false,
  ],
  [
    'a discriminator added to a response oneOf',
    api({
      response: { oneOf: [ref('Cat'), ref('Dog')] },
      schemas: {
        Cat: object({ kind: { const: 'cat' } }, ['kind']),
        Dog: object({ kind: { const: 'dog' } }, ['kind']),
      },
    }),
    api({
      response: {
        oneOf: [ref('Cat'), ref('Dog')],
        discriminator: {
          propertyName: 'kind',
          mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' },
        },
      },
      schemas: {
        Cat: object({ kind: { const: 'cat' } }, ['kind']),
        Dog: object({ kind: { const: 'dog' } }, ['kind']),
      },
    }),
    null,
    false,
  ],
  [
    'a discriminator value removed from a request oneOf mapping',
    api({
      request: {
        oneOf: [ref('Cat')],
        discriminator: {
          propertyName: 'kind',
          mapping: { cat: '#/components/schemas/Cat', kitty: '#/components/schemas/Cat' },
        },
      },
      schemas: { Cat: object({ kind: str }, ['kind']) },
    }),
    api({
      request: {
        oneOf: [ref('Cat')],
        discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat' } },
      },
      schemas: { Cat: object({ kind: str }, ['kind']) },
    }),
    'request-discriminator-value-removed',
    true,
  ],
  // The direction rules kept.
  [
    'an alternative removed from a request oneOf',
    api({
      request: { oneOf: [ref('Cat'), ref('Dog')] },
      schemas: { Cat: object({ lives: str }, ['lives']), Dog: { type: 'string' } },
    }),
    api({ request: { oneOf: [ref('Cat')] }, schemas: { Cat: object({ lives: str }, ['lives']) } }),
    'request-alternative-removed',
    true,
  ],
  [
    'an alternative added to a response anyOf',
    api({ response: { anyOf: [str] } }),
    api({ response: { anyOf: [str, { type: 'integer' }] } }),
    'response-alternative-added',
    true,
  ],
  [
    'an array query parameter explode change',
    api({ parameters: [query('ids', { type: 'array', items: str })] }),
    api({ parameters: [query('ids', { type: 'array', items: str }, { explode: false })] }),
    'parameter-serialisation-changed',
    true,
  ],
  [
    'a tightened pattern (request)',
    api({ request: object({ code: { type: 'string', pattern: '^[a-z]+$' } }) }),
    api({ request: object({ code: { type: 'string', pattern: '^[a-c]+$' } }) }),
    'request-pattern-tightened',
    true,
  ],
  [
    'a loosened pattern (response)',
    api({ response: object({ code: { type: 'string', pattern: '^\\d{3}$' } }) }),
    api({ response: object({ code: { type: 'string', pattern: '^\\d{3,4}$' } }) }),
    'response-pattern-loosened',
    true,
  ],
  [
    'a pattern whose relation cannot be decided',
    api({ request: object({ code: { type: 'string', pattern: '^(?=a)\\w+$' } }) }),
    api({ request: object({ code: { type: 'string', pattern: '^b\\w+$' } }) }),
    'request-pattern-changed',
    true,
  ],
  [
    'a request property made read-only',
    api({ request: object({ id: str, name: str }) }),
    api({ request: object({ id: { ...str, readOnly: true }, name: str }) }),
    'request-property-read-only',
    true,
  ],
];

describe('the cases of issue 25', () => {
  it.each(cases)('%s', (_case, base, head, rule, fails) => {
    const { findings, breaking } = findBreakingChanges(base, head);
    if (rule !== null) expect(findings.map((f) => f.rule)).toContain(rule);
    expect(breaking.length > 0, JSON.stringify(breaking, null, 2)).toBe(fails);
    for (const finding of breaking) {
      expect(finding.pointer).toMatch(/^#\//);
      expect(finding.fix).toEqual(expect.any(String));
    }
  });

  it('points an undecidable pattern at its place, as review', () => {
    const [finding] = findBreakingChanges(
      api({ request: object({ code: { type: 'string', pattern: '^(?=a)\\w+$' } }) }),
      api({ request: object({ code: { type: 'string', pattern: '^b\\w+$' } }) }),
    ).breaking;
    expect(finding).toMatchObject({
      kind: 'review',
      rule: 'request-pattern-changed',
      pointer:
        '#/paths/~1things/post/requestBody/content/application~1json/schema/properties/code/pattern',
      side: 'after',
    });
  });

  it('points a change inside a shared base at the base, not at its user', () => {
    const [finding] = findBreakingChanges(cases[3][1], cases[3][2]).breaking;
    expect(finding.pointer).toBe('#/components/schemas/Base/properties/code/maxLength');
    expect(finding.message).toBe(
      'POST /things request body.code: `maxLength` tightened from 10 to 5',
    );
  });

  it('terminates on recursive schemas and still finds a change inside them', () => {
    const tree = (max) => ({
      Node: {
        type: 'object',
        properties: {
          name: { type: 'string', maxLength: max },
          children: { type: 'array', items: ref('Node') },
          parent: { allOf: [ref('Node')] },
        },
      },
    });
    const { breaking } = findBreakingChanges(
      api({ request: ref('Node'), schemas: tree(10) }),
      api({ request: ref('Node'), schemas: tree(5) }),
    );
    expect(breaking.map((f) => f.message)).toContain(
      'POST /things request body.name: `maxLength` tightened from 10 to 5',
    );
    // Reached twice (directly, and through `parent`), found at one place.
    expect(new Set(breaking.map((f) => f.pointer))).toEqual(
      new Set(['#/components/schemas/Node/properties/name/maxLength']),
    );
  });
});

describe('removal after a passed Sunset', () => {
  const deprecated = (sunset) => {
    const d = api({
      parameters: [query('old', str, { deprecated: true, 'x-sunset': '2030-01-01T00:00:00Z' })],
    });
    Object.assign(d.paths['/things/{thingId}'].get, { deprecated: true });
    d.paths['/things/{thingId}'].get.responses[200].headers = {
      Sunset: { schema: { type: 'string', const: sunset } },
    };
    return d;
  };
  const withoutOperation = () => {
    const d = api();
    delete d.paths['/things/{thingId}'];
    return d;
  };

  it('allows and reports an operation removed after its Sunset date', () => {
    const report = findBreakingChanges(
      deprecated('Thu, 05 Dec 2030 00:00:00 GMT'),
      withoutOperation(),
      { now: new Date('2030-12-05T00:00:00Z') },
    );
    expect(report.breaking).toEqual([]);
    expect(report.findings.map((f) => f.message)).toContain(
      'GET /things/{thingId}: operation removed after its sunset (Thu, 05 Dec 2030 00:00:00 GMT)',
    );
  });

  it('still fails when the Sunset date has not passed', () => {
    const report = findBreakingChanges(
      deprecated('Thu, 05 Dec 2030 00:00:00 GMT'),
      withoutOperation(),
      { now: new Date('2030-12-04T23:59:59Z') },
    );
    expect(report.breaking.map((f) => f.rule)).toEqual(['operation-removed']);
  });

  it('allows a deprecated parameter removed after its x-sunset date, and not before', () => {
    const head = deprecated('Thu, 05 Dec 2030 00:00:00 GMT');
    head.paths['/things/{thingId}'].get.parameters.pop();
    const base = deprecated('Thu, 05 Dec 2030 00:00:00 GMT');
    const after = findBreakingChanges(base, head, { now: new Date('2030-01-01T00:00:00Z') });
    expect(after.breaking).toEqual([]);
    expect(after.findings.map((f) => f.rule)).toContain('parameter-removed-after-sunset');
    const before = findBreakingChanges(base, head, { now: new Date('2029-12-31T23:59:59Z') });
    expect(before.breaking.map((f) => f.rule)).toEqual(['parameter-removed']);
  });

  it('does not allow removing an operation that was never deprecated', () => {
    const report = findBreakingChanges(api(), withoutOperation(), {
      now: new Date('2100-01-01T00:00:00Z'),
    });
    expect(report.breaking.map((f) => f.rule)).toEqual(['operation-removed']);
  });
});

describe('patternCovers', () => {
  it.each([
    ['^[a-zA-Z]+$', '^[a-z]+$', true],
    ['^[a-z]+$', '^[a-zA-Z]+$', false],
    ['^\\d{3,5}$', '^\\d{3}$', true],
    ['^\\d{3}$', '^\\d{3,5}$', false],
    ['^a$|^b$', '^a$', true],
    ['^[^\\x00-\\x1F\\x7F]*$', '^[^\\u0000-\\u001F\\u007F]*$', true],
    ['^[^\\x00-\\x20\\x7F]*$', '^[^\\u0000-\\u001F\\u007F]*$', false],
    ['^.+$', '^\\w+$', true],
    ['^(?=a)\\w+$', '^a\\w+$', null],
  ])('%s covers %s: %s', (outer, inner, expected) => {
    expect(patternCovers(outer, inner)).toBe(expected);
  });
});
