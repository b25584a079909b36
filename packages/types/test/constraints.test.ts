import { describe, expect, it } from 'vitest';
import { deref, description, operations } from './description.js';

const schemas = description.components.schemas;
const maxSafe = Number.MAX_SAFE_INTEGER;

function parameter(operationId: string, name: string) {
  const found = operations().find((o) => o.operation.operationId === operationId);
  return found?.operation.parameters.map(deref).find((p: { name: string }) => p.name === name);
}

describe('the constraints of the specification', () => {
  it('has exactly the three operations, named as specified', () => {
    expect(
      operations().map((o) => `${o.method.toUpperCase()} ${o.path} ${o.operation.operationId}`),
    ).toEqual(['GET /pets listPets', 'POST /pets createPet', 'GET /pets/{petId} getPet']);
  });

  it('bounds limit to 1..100 with default 20', () => {
    expect(parameter('listPets', 'limit').schema).toEqual({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 100,
      default: 20,
    });
  });

  it('filters by the PetStatus enum', () => {
    expect(deref(parameter('listPets', 'status').schema).enum).toEqual([
      'available',
      'pending',
      'sold',
    ]);
    expect(schemas.PetStatus.enum).toEqual(['available', 'pending', 'sold']);
  });

  it('requires name and categoryId on NewPet and forbids id and unknown properties', () => {
    expect(schemas.NewPet.required).toEqual(['name', 'categoryId']);
    expect(schemas.NewPet.additionalProperties).toBe(false);
    expect(Object.keys(schemas.NewPet.properties)).toEqual(['name', 'categoryId', 'status']);
  });

  it('makes Pet every field of NewPet plus a required id', () => {
    expect(schemas.Pet.required).toEqual(['id', 'name', 'categoryId']);
    expect(Object.keys(schemas.Pet.properties).sort()).toEqual(
      ['id', ...Object.keys(schemas.NewPet.properties)].sort(),
    );
  });

  it('types every identifier as int64 within the exactly representable range', () => {
    for (const schema of [
      schemas.Pet.properties.id,
      deref(schemas.NewPet.properties.categoryId),
      parameter('getPet', 'petId').schema,
    ]) {
      expect(schema).toMatchObject({ type: 'integer', format: 'int64', maximum: maxSafe });
      expect(schema.minimum).toBeGreaterThanOrEqual(-maxSafe);
    }
    expect(parameter('getPet', 'petId').required).toBe(true);
  });

  it('bounds name to 1..255 characters without control characters, in \\x escapes', () => {
    const name = deref(schemas.NewPet.properties.name);
    expect(name).toMatchObject({ minLength: 1, maxLength: 255 });
    // \\u escapes come out of some generators as raw control bytes; \\x ones do not.
    expect(name.pattern).toBe('^[^\\x00-\\x1F\\x7F]*$');
    for (const flags of ['', 'u']) {
      const pattern = new RegExp(name.pattern, flags);
      expect(['Rex', 'Zoë 🐕'].filter((n) => pattern.test(n))).toEqual(['Rex', 'Zoë 🐕']);
      expect(['Re\u0000x', 'Rex\n', 'Rex\u007F'].filter((n) => pattern.test(n))).toEqual([]);
    }
    expect(name.description).toContain('lone UTF-16 surrogate');
  });

  it('keeps the 1.0 ErrorCode enum and gives the codes of 1.1 bodies of their own', () => {
    const errorBodies = ['ErrorBody', 'IdempotencyErrorBody', 'ServiceUnavailableErrorBody'];
    for (const name of errorBodies) {
      expect(schemas[name]).toMatchObject({
        type: 'object',
        required: ['code', 'message', 'status'],
        additionalProperties: false,
        properties: {
          message: { $ref: '#/components/schemas/ErrorMessage' },
          status: { $ref: '#/components/schemas/ErrorStatus' },
        },
      });
    }
    expect(schemas.Error).toBeUndefined(); // renamed: it shadowed the global Error
    expect(schemas.ErrorCode.enum).toEqual([
      'invalid_request',
      'unauthorized',
      'not_found',
      'method_not_allowed',
      'payload_too_large',
      'unsupported_media_type',
      'rate_limited',
      'key_banned',
      'internal_error',
    ]);
    expect(schemas.IdempotencyErrorCode.enum).toEqual([
      'idempotency_key_in_use',
      'idempotency_key_reused',
    ]);
    expect(schemas.ServiceUnavailableErrorCode.const).toBe('service_unavailable');
    expect(schemas.ErrorMessage).toMatchObject({ type: 'string', minLength: 1, maxLength: 1024 });
  });

  it('requires bearer authentication on every operation', () => {
    expect(description.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(description.security).toEqual([{ bearerAuth: [] }]);
    for (const { operation } of operations()) expect(operation.security).toBeUndefined();
  });

  it('answers the specified statuses, each error with the body of its status', () => {
    const statuses = Object.fromEntries(
      operations().map((o) => [o.operation.operationId, Object.keys(o.operation.responses)]),
    );
    expect(statuses).toEqual({
      listPets: ['200', '304', '400', '401', '429', '500', '503'],
      createPet: ['201', '400', '401', '409', '413', '415', '422', '429', '500', '503'],
      getPet: ['200', '304', '400', '401', '404', '429', '500', '503'],
    });
    const bodyOf = (status: string) =>
      ({ '409': 'IdempotencyErrorBody', '422': 'IdempotencyErrorBody' })[status] ??
      (status === '503' ? 'ServiceUnavailableErrorBody' : 'ErrorBody');
    for (const { operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '304') expect(deref(response).content).toBeUndefined();
        if (Number(status) < 400) continue;
        expect(deref(deref(response).content['application/json'].schema)).toBe(
          schemas[bodyOf(status)],
        );
      }
    }
  });

  const each = () => true;
  it.each([
    [['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'], 'every response', each],
    [['RateLimit-Policy', 'RateLimit', 'X-Request-Id'], 'every response', each],
    [['Retry-After'], 'every 409, 429 and 503', (s: string) => ['409', '429', '503'].includes(s)],
    [['WWW-Authenticate'], 'every 401', (s: string) => s === '401'],
    [
      ['ETag'],
      'every 200 and 304 of a GET',
      (s: string, m: string) => m === 'get' && ['200', '304'].includes(s),
    ],
    [['Idempotent-Replayed'], 'the 201 of createPet', (s: string) => s === '201'],
  ])(
    'declares %j on %s, and only there',
    (names: string[], _where, applies: (status: string, method: string) => boolean) => {
      for (const { method, operation } of operations()) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const headers = Object.keys(deref(response).headers);
          for (const name of names) {
            expect(headers.includes(name), `${method} ${status} ${name}`).toBe(
              applies(status, method),
            );
          }
        }
      }
    },
  );

  it('declares the CORS headers on every response, as optional, exposing all the others', () => {
    for (const { operation } of operations()) {
      for (const response of Object.values(operation.responses)) {
        const headers = deref(response).headers;
        for (const name of [
          'Access-Control-Allow-Origin',
          'Access-Control-Expose-Headers',
          'Vary',
        ]) {
          expect(deref(headers[name]).required).toBe(false);
        }
      }
    }
    const exposed = description.components.headers['Access-Control-Expose-Headers'].schema.const;
    const documented = new Set(['Allow']); // on 405, which no operation lists
    for (const { operation } of operations()) {
      for (const response of Object.values(operation.responses)) {
        for (const name of Object.keys(deref(response).headers)) {
          if (!name.startsWith('Access-Control-') && name !== 'Vary') documented.add(name);
        }
      }
    }
    expect(exposed.split(', ')).toEqual([...documented].sort());
  });

  it('marks getPet deprecated with the sunset and replacement on every response', () => {
    const getPet = operations().find((o) => o.operation.operationId === 'getPet')?.operation;
    expect(getPet.deprecated).toBe(true);
    expect(getPet.description).toContain('5 December 2030');
    expect(getPet.description).toContain('`GET /pets` with the `status` filter');
    for (const response of Object.values(getPet.responses)) {
      const headers = deref(response).headers;
      expect(deref(headers.Sunset).schema.const).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      expect(deref(headers.Deprecation).schema.const).toMatch(/^@\d+$/);
      expect(deref(headers.Link).example).toContain('rel="successor-version"');
    }
    for (const { operation } of operations()) {
      if (operation !== getPet) expect(operation.deprecated).toBeUndefined();
    }
  });

  it('paginates listPets with a next link and an opaque cursor', () => {
    const list = operations().find((o) => o.operation.operationId === 'listPets')?.operation;
    expect(deref(list.responses['200'].headers.Link).example).toMatch(/rel="next"/);
    expect(parameter('listPets', 'cursor')).toMatchObject({ in: 'query', required: false });
    expect(list.responses['200'].content['application/json'].schema.type).toBe('array');
  });
});
