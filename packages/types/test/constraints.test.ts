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

  it('bounds name to 1..255 characters without control characters', () => {
    const name = deref(schemas.NewPet.properties.name);
    expect(name).toMatchObject({ minLength: 1, maxLength: 255 });
    const pattern = new RegExp(name.pattern, 'u');
    expect(['Rex', 'Zoë 🐕'].filter((n) => pattern.test(n))).toEqual(['Rex', 'Zoë 🐕']);
    expect(['Re\u0000x', 'Rex\n', 'Rex\u007F'].filter((n) => pattern.test(n))).toEqual([]);
  });

  it('defines the Error body with code, message and status, and the documented codes', () => {
    expect(schemas.Error.required).toEqual(['code', 'message', 'status']);
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
  });

  it('requires bearer authentication on every operation', () => {
    expect(description.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(description.security).toEqual([{ bearerAuth: [] }]);
    for (const { operation } of operations()) expect(operation.security).toBeUndefined();
  });

  it('answers the specified statuses, each error with the Error body', () => {
    const statuses = Object.fromEntries(
      operations().map((o) => [o.operation.operationId, Object.keys(o.operation.responses)]),
    );
    expect(statuses).toEqual({
      listPets: ['200', '400', '401', '429', '500'],
      createPet: ['201', '400', '401', '413', '415', '429', '500'],
      getPet: ['200', '400', '401', '404', '429', '500'],
    });
    for (const { operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        expect(deref(deref(response).content['application/json'].schema)).toBe(schemas.Error);
      }
    }
  });

  it('puts the rate-limit headers on every response and Retry-After on every 429', () => {
    for (const { operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers = Object.keys(deref(response).headers);
        expect(headers).toEqual(
          expect.arrayContaining([
            'X-RateLimit-Limit',
            'X-RateLimit-Remaining',
            'X-RateLimit-Reset',
          ]),
        );
        expect(headers.includes('Retry-After')).toBe(status === '429');
      }
    }
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
