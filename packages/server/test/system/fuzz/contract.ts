import fc from 'fast-check';
import { bundle, validator } from '../../support/contract.js';
import { type DraftRequest, type Header, percentEncode, type QueryPair } from './request.js';

/**
 * What the fuzz suite knows about the API, read from the bundled contract only: the operations
 * (method, path, parameters, body, documented responses), the error codes and their statuses,
 * and, per JSON Schema, an arbitrary of the values it accepts. A change to the contract changes
 * what is generated; a schema keyword this file cannot generate for fails loudly.
 */

type Json = Record<string, unknown>;

/** RFC 6901 pointer of a path of keys. */
export const pointerOf = (...keys: (string | number)[]) =>
  keys.map((key) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** The node at a pointer of the bundle, following `$ref`s; returns it and its final pointer. */
export function deref(pointer: string): { node: Json; pointer: string } {
  const node = pointer
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (at, key) => (at as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      bundle,
    ) as Json;
  const ref = node.$ref;
  return typeof ref === 'string' ? deref(ref.replace(/^#/, '')) : { node, pointer };
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** Pointer of its schema (after `$ref`s). */
  schema: string;
  /**
   * Its description calls it opaque: only values the service issued are valid (the listing's
   * `cursor`), so no schema-valid value can be made up for it.
   */
  opaque: boolean;
}

export interface Operation {
  id: string;
  method: string;
  /** The full path template under the base path: `/v1/pets/{petId}`. */
  template: string;
  parameters: Parameter[];
  /** The request body's media type and the pointer of its schema. */
  body?: { mediaType: string; schema: string } | undefined;
  /** Requires the bearer scheme. */
  bearer: boolean;
  /** Documented status → pointer of the response object (after `$ref`s). */
  responses: Map<number, string>;
}

/** `/v1`: the path of the first server URL. */
export const basePath = new URL((bundle.servers as { url: string }[])[0]!.url).pathname.replace(
  /\/$/,
  '',
);

const bearerSchemes = Object.entries(bundle.components.securitySchemes as Record<string, Json>)
  .filter(([, scheme]) => scheme.type === 'http' && scheme.scheme === 'bearer')
  .map(([name]) => name);

export const operations: Operation[] = Object.entries(bundle.paths as Record<string, Json>).flatMap(
  ([path, item]) =>
    Object.keys(item)
      .filter((method) =>
        ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(method),
      )
      .map((method) => readOperation(path, method)),
);

function readOperation(path: string, method: string): Operation {
  const at = pointerOf('paths', path, method);
  const operation = deref(at).node;
  const parameters = ((operation.parameters ?? []) as unknown[]).map((_, index) => {
    const parameter = deref(`${at}${pointerOf('parameters', index)}`);
    if (!['path', 'query', 'header'].includes(parameter.node.in as string)) {
      throw new Error(`fuzz: parameters in ${String(parameter.node.in)} are not generated`);
    }
    return {
      name: parameter.node.name as string,
      in: parameter.node.in as Parameter['in'],
      required: parameter.node.required === true,
      schema: deref(`${parameter.pointer}/schema`).pointer,
      opaque: /\bopaque\b/i.test(String(parameter.node.description ?? '')),
    };
  });
  const content = (operation.requestBody as Json | undefined)?.content as Json | undefined;
  const mediaType = content && Object.keys(content)[0];
  const security = (operation.security ?? bundle.security) as Record<string, unknown>[];
  return {
    id: operation.operationId as string,
    method: method.toUpperCase(),
    template: `${basePath}${path}`,
    parameters,
    body:
      mediaType === undefined
        ? undefined
        : {
            mediaType,
            schema: deref(`${at}${pointerOf('requestBody', 'content', mediaType, 'schema')}`)
              .pointer,
          },
    bearer: security.some((requirement) => bearerSchemes.some((name) => name in requirement)),
    responses: new Map(
      Object.keys(operation.responses as Json).map((status) => [
        Number(status),
        deref(`${at}${pointerOf('responses', status)}`).pointer,
      ]),
    ),
  };
}

/** The operation whose template the path matches with this method (segment by segment, exactly). */
export function operationAt(method: string, path: string): Operation | undefined {
  return operations.find((operation) => operation.method === method && matches(operation, path));
}

/** Whether a path has the shape of the operation's template. */
export function matches(operation: Operation, path: string): boolean {
  const want = operation.template.split('/');
  const got = path.split('/');
  return (
    want.length === got.length &&
    want.every((segment, index) =>
      /^\{.+\}$/.test(segment) ? got[index] !== '' : segment === got[index],
    )
  );
}

/**
 * The documented statuses of each error code, read from the error table of the description's
 * overview (`| 400 | \`invalid_request\` | …`; a code may come with several statuses, e.g.
 * `invalid_request` with 400, 408 and 431); every status the table names is an error status
 * the API may answer with.
 */
export const errorStatuses: ReadonlyMap<string, ReadonlySet<number>> = [
  ...(bundle.info.description as string).matchAll(/^\|\s*(\d{3})\s*\|\s*`(\w+)`/gm),
].reduce((byCode, [, status, code]) => {
  byCode.set(code!, new Set([...(byCode.get(code!) ?? []), Number(status)]));
  return byCode;
}, new Map<string, Set<number>>());
if (errorStatuses.size === 0) throw new Error('fuzz: no error table in info.description');

/** Pointers of the body schemas of every documented error response (400 and up). */
export const errorBodySchemas: string[] = [
  ...new Set(
    operations.flatMap((operation) =>
      [...operation.responses]
        .filter(([status]) => status >= 400)
        .map(([, response]) => {
          const content = deref(response).node.content as Json;
          const mediaType = Object.keys(content)[0]!;
          return deref(`${response}${pointerOf('content', mediaType, 'schema')}`).pointer;
        }),
    ),
  ),
];

/**
 * Whether every string of a value, property names included, is well-formed Unicode (no lone
 * UTF-16 surrogate): the description's *Strings* section makes that a rule for every string a
 * request carries, beyond what the schemas' patterns say.
 */
export function isWellFormed(value: unknown): boolean {
  if (typeof value === 'string') return !/\p{Cs}/u.test(value);
  if (typeof value !== 'object' || value === null) return true;
  return Object.entries(value).every(([key, item]) => isWellFormed(key) && isWellFormed(item));
}

/**
 * The query parameter, header parameter and body property names a mutation of the operation's
 * requests picks from: the operation's own, or, when it has none, every one the contract has.
 */
export function namesFor(operation: Operation): Record<'query' | 'header' | 'body', string[]> {
  const namesIn = (where: Parameter['in']) => (op: Operation) =>
    op.parameters.filter((parameter) => parameter.in === where).map((p) => p.name);
  const queryOf = namesIn('query');
  const headerOf = namesIn('header');
  const bodyOf = (op: Operation) =>
    op.body ? Object.keys((deref(op.body.schema).node.properties as Json | undefined) ?? {}) : [];
  const own = (names: string[], all: string[]) => (names.length > 0 ? names : [...new Set(all)]);
  return {
    query: own(queryOf(operation), operations.flatMap(queryOf)),
    header: own(headerOf(operation), operations.flatMap(headerOf)),
    body: own(bodyOf(operation), operations.flatMap(bodyOf)),
  };
}

/**
 * Characters a generated string may be made of besides those `fc.stringMatching` picks (which
 * are ASCII): every one the schema's pattern allows is used.
 */
const remarkableCharacters = [
  ...'éß中😀\u{10FFFF}\uFFFD\uFFFF\uFEFF\u200B\u200D\u202E\u0301\u00A0\u0085\u2028',
  ...'"\\\'<>&%/;`$ {}',
];

/** Names that look like an attack on a store or a page; valid strings, to be kept exactly. */
export const injectionLikeStrings = [
  "' OR '1'='1",
  "Rex'); DROP TABLE pets; --",
  '" OR ""="',
  '1; SELECT pg_sleep(0)',
  '{"$gt":""}',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '../../../etc/passwd',
  '%00',
  '%s%s%n',
  'null',
  '__proto__',
  'constructor',
];

/** Whether a value is valid for the schema at `pointer`: the schema accepts it, and it is well-formed. */
export function validFor(pointer: string): (value: unknown) => boolean {
  const validate = validator(pointer);
  return (value) => validate(value) === true && isWellFormed(value);
}

/** An arbitrary of the values valid for the schema at `pointer` (each checked with `validFor`). */
export function valuesOf(pointer: string): fc.Arbitrary<unknown> {
  return valuesOfSchema(deref(pointer).node, pointer).filter(validFor(pointer));
}

function valuesOfSchema(schema: Json, pointer: string): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case 'string':
      return stringsOf(schema);
    case 'integer':
      return integersOf(schema);
    case 'boolean':
      return fc.boolean();
    case 'object': {
      const properties = (schema.properties ?? {}) as Json;
      return fc.record(
        Object.fromEntries(
          Object.keys(properties).map((name) => [
            name,
            valuesOf(deref(`${pointer}${pointerOf('properties', name)}`).pointer),
          ]),
        ),
        { requiredKeys: (schema.required ?? []) as string[] },
      );
    }
    default:
      throw new Error(`fuzz: cannot generate values of the schema at ${pointer}`);
  }
}

function integersOf(schema: Json): fc.Arbitrary<number> {
  const min = (schema.minimum as number | undefined) ?? Number.MIN_SAFE_INTEGER;
  const max = (schema.maximum as number | undefined) ?? Number.MAX_SAFE_INTEGER;
  return fc.oneof(
    fc.integer({ min: Math.max(min, -1000), max: Math.min(max, 1000) }),
    fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number),
    fc.constantFrom(min, max),
  );
}

function stringsOf(schema: Json): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = (schema.maxLength as number | undefined) ?? 1000;
  const pattern = schema.pattern as string | undefined;
  // A pattern such as ^[^\u0000-\u001F]*$ or ^[A-Za-z0-9_-]+$: one character class, repeated.
  const repeatedClass = pattern === undefined ? undefined : /^\^(\[.+\])[*+]\$$/.exec(pattern)?.[1];
  if (pattern !== undefined && repeatedClass === undefined) {
    return fc.stringMatching(new RegExp(pattern, 'u'));
  }
  const one = new RegExp(`^${repeatedClass ?? '.'}$`, 'su');
  const allowed = remarkableCharacters.filter((char) => one.test(char));
  const unit = fc.oneof(
    { weight: 3, arbitrary: fc.stringMatching(one) },
    ...(allowed.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...allowed) }] : []),
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit, minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit, minLength: maxLength, maxLength }) },
    { weight: 1, arbitrary: fc.constantFrom(...injectionLikeStrings) },
  );
}

/**
 * A request of the operation as the contract describes it: every required and some optional
 * parameters with valid values, the bearer key, and a valid body of the documented media type.
 * Opaque parameters are left out: only values the service issued are valid (mutations still
 * send made-up ones, and the listing check follows issued ones).
 */
export function validRequestsOf(operation: Operation, key: string): fc.Arbitrary<DraftRequest> {
  const valuesIn = (where: Parameter['in']) => {
    const parameters = operation.parameters.filter(
      (parameter) => parameter.in === where && !parameter.opaque,
    );
    return fc.record(
      Object.fromEntries(
        parameters.map((parameter) => [parameter.name, valuesOf(parameter.schema)]),
      ),
      { requiredKeys: parameters.filter((p) => p.required).map((p) => p.name) },
    );
  };
  const wire = (value: unknown) => percentEncode(String(value));
  return fc
    .record({
      path: valuesIn('path'),
      query: valuesIn('query'),
      header: valuesIn('header'),
      body: operation.body ? valuesOf(operation.body.schema) : fc.constant(undefined),
    })
    .map(({ path, query, header, body }) => {
      const headers: Header[] = [
        ...(operation.bearer ? [['Authorization', `Bearer ${key}`] as const] : []),
        ...(operation.body ? [['Content-Type', operation.body.mediaType] as const] : []),
        ...Object.entries(header).map(([name, value]) => [name, String(value)] as const),
      ];
      return {
        method: operation.method,
        path: operation.template.replace(/\{(.+?)\}/g, (_, name: string) => wire(path[name])),
        query: Object.entries(query).map(([name, value]): QueryPair => [name, wire(value)]),
        headers,
        body: operation.body ? { json: body } : undefined,
      };
    });
}
