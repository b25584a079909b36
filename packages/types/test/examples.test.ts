import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { deref, description, type Json } from './description.js';

// Validates every example of the description against the schema it illustrates, with a
// JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1) independent of Redocly's.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addSchema({ ...description, $id: 'openapi.json' });

/** Rewrites local `#/...` references so they resolve inside the added description. */
function anchored(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#')
      ? `openapi.json${value}`
      : value,
  );
}

function check(schema: Json, value: unknown) {
  const validate = ajv.compile(anchored(schema));
  return validate(value) ? [] : validate.errors;
}

/** Every (where, schema, value) triple for the examples of the description. */
function collect(): [string, Json, unknown][] {
  const cases: [string, Json, unknown][] = [];
  const visit = (node: Json, where: string) => {
    if (!node || typeof node !== 'object') return;
    if (node.schema && (node.examples || node.example !== undefined)) {
      const schema = node.schema;
      if (node.example !== undefined) cases.push([`${where}.example`, schema, node.example]);
      for (const [name, example] of Object.entries(node.examples ?? {})) {
        cases.push([`${where}.examples.${name}`, schema, deref(example).value]);
      }
    }
    for (const [key, child] of Object.entries(node)) visit(child, `${where}.${key}`);
  };
  visit(description.paths, 'paths');
  visit(description.components, 'components');
  return cases;
}

const cases = collect();

describe('the examples of the description', () => {
  it('cover every request and response body', () => {
    const bodies = cases.filter(([where]) => where.includes('application/json'));
    expect(bodies.length).toBeGreaterThanOrEqual(15);
  });

  it.each(cases)('%s is valid against its schema', (_where, schema, value) => {
    expect(check(schema, value)).toEqual([]);
  });

  it('rejects a wrong value, so the check above can fail', () => {
    expect(check({ $ref: '#/components/schemas/Pet' }, { id: 1, name: 'Rex' })).not.toEqual([]);
    expect(
      check({ $ref: '#/components/schemas/NewPet' }, { name: 'Rex', categoryId: 1, id: 3 }),
    ).not.toEqual([]);
  });
});
