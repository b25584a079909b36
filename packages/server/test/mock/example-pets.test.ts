import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { examplePets } from '../../src/mock/example-pets.js';

const require = createRequire(import.meta.url);

describe('examplePets', () => {
  it('reads the animals of the bundled description examples, once each, by id', () => {
    const bundle: unknown = JSON.parse(
      readFileSync(require.resolve('@petstore/types/openapi.json'), 'utf8'),
    );
    expect(examplePets(bundle)).toEqual([
      { name: 'Rex', categoryId: 1, status: 'available' },
      { name: 'Tom', categoryId: 2 },
      { name: 'Polly', categoryId: 3, status: 'sold' },
    ]);
  });

  it('follows $refs, takes arrays and single pets, and ignores error and request examples', () => {
    const description = {
      paths: {
        '/pets': {
          get: {
            responses: {
              '200': {
                content: {
                  'application/json': {
                    examples: {
                      page: { $ref: '#/components/examples/Page' },
                      empty: { value: [] },
                    },
                  },
                },
              },
              '404': {
                content: {
                  'application/json': {
                    examples: { gone: { value: { id: 99, name: 'Ghost', categoryId: 9 } } },
                  },
                },
              },
            },
          },
          post: {
            requestBody: {
              content: {
                'application/json': { examples: { x: { value: { name: 'Req', categoryId: 1 } } } },
              },
            },
            responses: {
              '201': {
                content: {
                  'application/json': {
                    examples: { one: { value: { id: 5, name: 'Five', categoryId: 1 } } },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        examples: {
          Page: {
            value: [
              { id: 7, name: 'Seven', categoryId: 2, status: 'sold' },
              { id: 5, name: 'Five again', categoryId: 1 },
              { code: 'not_a_pet' },
            ],
          },
        },
      },
    };
    expect(examplePets(description)).toEqual([
      { name: 'Five', categoryId: 1 },
      { name: 'Seven', categoryId: 2, status: 'sold' },
    ]);
  });
});
