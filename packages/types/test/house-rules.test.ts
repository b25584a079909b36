/**
 * Every house rule of redocly.yaml, proven: a deliberately broken copy of the description
 * per rule, linted with the repository's configuration (the pinned Redocly CLI, as
 * `npm run lint:api` runs it), must make exactly that rule fire. The copies live in a
 * scratch folder; the real description is never touched. One CLI run lints them all.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Json } from './description.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const config = path.join(repoRoot, 'redocly.yaml');
const source = readFileSync(path.join(repoRoot, 'openapi/openapi.yaml'), 'utf8');

const paths = (d: Json) => d.paths;
const components = (d: Json) => d.components;
const listPets = (d: Json) => d.paths['/pets'].get;
const headersOf = (d: Json, response: string) => components(d).responses[response].headers;

/** A second file of the copies, defining a `PetStatus` of its own. */
const sharedFile = 'shared-components.yaml';

/** A valid operation to add, with only a 500 answer unless told otherwise. */
function extraOperation(d: Json, operationId: string): Json {
  return {
    operationId,
    summary: 'Remove an animal',
    description: 'Removes an animal.',
    tags: ['Pets'],
    parameters: [{ $ref: '#/components/parameters/PetId' }],
    responses: structuredClone(d.paths['/pets/{petId}'].get.responses),
  };
}

/** [rule, how the copy breaks it, the edit, the rules expected to fire]. */
const cases: [string, string, (d: Json) => void, string[]][] = [
  [
    'no-invalid-media-type-examples',
    'a response example with a string id',
    (d) => {
      components(d).examples.PetWithStatus.value.id = 'ten';
    },
    ['no-invalid-media-type-examples'],
  ],
  [
    'no-invalid-schema-examples',
    'a schema example of the wrong type',
    (d) => {
      components(d).schemas.ErrorStatus.examples = ['four hundred'];
    },
    ['no-invalid-schema-examples'],
  ],
  [
    'no-invalid-parameter-examples',
    'a parameter example out of range',
    (d) => {
      components(d).parameters.Limit.example = 500;
    },
    ['no-invalid-parameter-examples'],
  ],
  [
    'no-unused-components',
    'a schema nothing refers to',
    (d) => {
      components(d).schemas.Unused = { type: 'string', maxLength: 1 };
    },
    ['no-unused-components'],
  ],
  [
    'operation-4xx-response',
    'an operation without a 4xx answer',
    (d) => {
      const op = extraOperation(d, 'deletePet');
      op.responses = { '200': op.responses['200'], '500': op.responses['500'] };
      paths(d)['/pets/{petId}'].delete = op;
    },
    ['operation-4xx-response'],
  ],
  [
    'operation-4xx-problem-details-rfc7807',
    '(off) error bodies that are not problem+json',
    () => {},
    [],
  ],
  [
    'operation-operationId',
    'an operation without operationId',
    (d) => delete listPets(d).operationId,
    ['operation-operationId'],
  ],
  [
    'operation-summary',
    'an operation without summary',
    (d) => delete listPets(d).summary,
    ['operation-summary'],
  ],
  [
    'operation-description',
    'an operation without description',
    (d) => delete listPets(d).description,
    ['operation-description'],
  ],
  [
    'operation-tag-defined',
    'an operation with an undeclared tag',
    (d) => {
      listPets(d).tags = ['Animals'];
    },
    ['operation-tag-defined'],
  ],
  [
    'operation-singular-tag',
    'an operation with two tags',
    (d) => {
      listPets(d).tags = ['Pets', 'Getting started'];
    },
    ['operation-singular-tag'],
  ],
  [
    'tag-description',
    'a tag without description',
    (d) => delete d.tags[1].description,
    ['tag-description'],
  ],
  ['info-contact', 'no contact', (d) => delete d.info.contact, ['info-contact']],
  ['info-license', 'no licence', (d) => delete d.info.license, ['info-license']],
  [
    'info-license-strict',
    'a licence with neither identifier nor url',
    (d) => delete d.info.license.identifier,
    ['info-license-strict'],
  ],
  [
    'no-server-example.com',
    'a server on example.com',
    (d) => {
      d.servers[0].url = 'https://example.com/v1';
    },
    ['no-server-example.com'],
  ],
  [
    'no-server-trailing-slash',
    'a server URL ending in a slash',
    (d) => {
      d.servers[0].url = 'https://api.petstore.example/v1/';
    },
    ['no-server-trailing-slash'],
  ],
  [
    'no-http-verbs-in-paths',
    'a path naming a method',
    (d) => {
      paths(d)['/pets/get'] = paths(d)['/pets'];
      delete paths(d)['/pets'];
    },
    ['no-http-verbs-in-paths'],
  ],
  [
    'path-segment-plural',
    '(off) a singular path segment',
    (d) => {
      paths(d)['/pet/{petId}'] = paths(d)['/pets/{petId}'];
      delete paths(d)['/pets/{petId}'];
    },
    [],
  ],
  [
    'paths-kebab-case',
    'a camelCase path segment',
    (d) => {
      paths(d)['/allPets'] = paths(d)['/pets'];
      delete paths(d)['/pets'];
    },
    ['paths-kebab-case'],
  ],
  [
    'parameter-description',
    'a parameter without description',
    (d) => delete components(d).parameters.Limit.description,
    ['parameter-description'],
  ],
  [
    'no-ambiguous-paths',
    'two templated paths that match the same URL',
    (d) => {
      const op = extraOperation(d, 'getPetOfKind');
      op.summary = 'Get an animal of a kind';
      op.parameters.push({
        name: 'kind',
        in: 'path',
        required: true,
        description: 'The kind of animal.',
        schema: { type: 'string', enum: ['pets'] },
      });
      op.parameters = op.parameters.filter((p: Json) => !p.$ref);
      paths(d)['/{kind}/all'] = { get: op };
    },
    ['no-ambiguous-paths'],
  ],
  [
    'component-name-unique',
    'a schema named as one of another file',
    (d) => {
      components(d).schemas.NewPet.properties.status = {
        $ref: `${sharedFile}#/components/schemas/PetStatus`,
      };
    },
    ['component-name-unique'],
  ],
  ...(
    [
      [
        'a 200 without X-RateLimit-Reset',
        'X-RateLimit-Reset',
        (d: Json) => listPets(d).responses['200'].headers,
      ],
      ['a 200 without ETag', 'ETag', (d: Json) => listPets(d).responses['200'].headers],
      [
        'a 201 without RateLimit',
        'RateLimit',
        (d: Json) => d.paths['/pets'].post.responses['201'].headers,
      ],
      ['a 304 without ETag', 'ETag', (d: Json) => headersOf(d, 'NotModified')],
      [
        'a 400 without X-Request-Id',
        'X-Request-Id',
        (d: Json) => headersOf(d, 'CreatePetBadRequest'),
      ],
      [
        'a 401 without WWW-Authenticate',
        'WWW-Authenticate',
        (d: Json) => headersOf(d, 'Unauthorized'),
      ],
      [
        'a 409 without Retry-After',
        'Retry-After',
        (d: Json) => headersOf(d, 'IdempotencyKeyInUse'),
      ],
      ['a 429 without Retry-After', 'Retry-After', (d: Json) => headersOf(d, 'TooManyRequests')],
      [
        'a 500 without RateLimit-Policy',
        'RateLimit-Policy',
        (d: Json) => headersOf(d, 'InternalError'),
      ],
      ['a 503 without Retry-After', 'Retry-After', (d: Json) => headersOf(d, 'ServiceUnavailable')],
    ] as const
  ).map(([what, header, headers]): [string, string, (d: Json) => void, string[]] => [
    'response-contains-header',
    what,
    (d) => delete headers(d)[header],
    ['response-contains-header'],
  ]),
  [
    'rule/operation-id-camel-case',
    'a snake_case operationId',
    (d) => {
      listPets(d).operationId = 'list_pets';
    },
    ['rule/operation-id-camel-case'],
  ],
  [
    'rule/summary-sentence-case',
    'a summary in title case',
    (d) => {
      listPets(d).summary = 'List Animals';
    },
    ['rule/summary-sentence-case'],
  ],
  [
    'rule/summary-no-period',
    'a summary ending in a period',
    (d) => {
      listPets(d).summary = 'List animals.';
    },
    ['rule/summary-no-period'],
  ],
  [
    'rule/schema-properties-camel-case',
    'a snake_case field',
    (d) => {
      components(d).schemas.NewPet.properties.birth_date = { type: 'string', format: 'date' };
    },
    ['rule/schema-properties-camel-case'],
  ],
  [
    'rule/error-responses-json',
    'an error response without a body',
    (d) => delete components(d).responses.Unauthorized.content,
    ['rule/error-responses-json'],
  ],
  [
    'rule/json-only',
    'a body in another media type',
    (d) => {
      const content = listPets(d).responses['200'].content;
      content['application/xml'] = content['application/json'];
      delete content['application/json'];
    },
    ['rule/json-only'],
  ],
];

let scratch: string;
/** Rule ids that fired, per case file name. */
const fired = new Map<string, string[]>();

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-house-rules-'));
  const files = [path.join(scratch, 'unchanged.yaml')];
  await writeFile(files[0] ?? '', source);
  const shared = {
    components: { schemas: { PetStatus: parse(source).components.schemas.PetStatus } },
  };
  await writeFile(path.join(scratch, sharedFile), stringify(shared));
  for (const [index, [, , edit]] of cases.entries()) {
    const copy = parse(source);
    edit(copy);
    const file = path.join(scratch, `case-${index}.yaml`);
    await writeFile(file, stringify(copy));
    files.push(file);
  }
  // Through scripts/redocly.mjs, as `npm run lint:api` runs it; it exits 1 on problems.
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['scripts/redocly.mjs', 'lint', ...files, '--config', config, '--format', 'json'],
      { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => (stdout ? resolve(stdout) : reject(error ?? new Error('no output'))),
    );
  });
  // One JSON report per file, back to back on stdout: `}{` stands on a line of its own.
  const reports = output
    .slice(output.indexOf('{'))
    .split(/^\}\{$/m)
    .map((part: string, i: number, all: string[]) =>
      JSON.parse(`${i > 0 ? '{' : ''}${part}${i < all.length - 1 ? '}' : ''}`),
    );
  expect(reports).toHaveLength(files.length);
  for (const file of files) fired.set(path.basename(file), []);
  for (const report of reports) {
    for (const problem of report.problems as Json[]) {
      const file = path.basename(problem.location[0].source.ref);
      fired.get(file)?.push(problem.ruleId);
    }
  }
}, 60_000);

afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('the house rules of redocly.yaml', () => {
  it('pass the description as it is', () => {
    expect(fired.get('unchanged.yaml')).toEqual([]);
  });

  it.each(cases.map((c, index) => [...c, index] as const))(
    '%s fires on %s, alone',
    (_rule, _what, _edit, expected, index) => {
      expect([...new Set(fired.get(`case-${index}.yaml`))]).toEqual(expected);
    },
  );

  it('have a case each', () => {
    const configured = Object.keys(parse(readFileSync(config, 'utf8')).rules);
    expect([...new Set(cases.map(([rule]) => rule))].sort()).toEqual(configured.sort());
  });
});
