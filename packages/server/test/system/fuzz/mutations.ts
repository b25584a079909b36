import fc from 'fast-check';
import { injectionLikeStrings, namesFor, type Operation } from './contract.js';
import {
  type Body,
  bodyText,
  type DraftRequest,
  type Header,
  headerOf,
  JsonLiteral,
  jsonText,
  percentEncode,
} from './request.js';

/**
 * The ways a valid request is spoiled. Each mutation is data (what it does, readable in a
 * failure report) plus a pure function from request to request, generated from a few random
 * choices so fast-check can shrink it. Several may apply to one request, in order.
 */
export interface Mutation {
  /** Which kind of mutation (counted, so a run proves it generated every kind). */
  kind: string;
  /** What exactly it did, for the report. */
  note: string;
  apply(request: DraftRequest): DraftRequest;
}

// ---------------------------------------------------------------- hostile values
// Each list runs from mild to extreme: fast-check shrinks a choice towards its first entry.

// prettier-ignore
const loneSurrogates = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', 'Rex\uD83D', '\uDE00Rex', '\uDC00\uD800'];
// prettier-ignore
const controls = ['\t', '\n', '\r\n', '\u0000', 'a\u0000b', '\u0001', '\u001B[31m', '\u001F', '\u007F'];
// prettier-ignore
const unicode = ['é', 'e\u0301', '中文', '😀', 'İ', '\u{10FFFF}', '\uFFFD', '\uFFFF', '\uFEFF', '\u200B', '\u202Eevil', '\u2028'];

/** Strings no well-behaved client sends, and some it does. */
const hostileStrings: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', ...loneSurrogates, ...controls, ...unicode, ...injectionLikeStrings),
  fc.string({
    unit: fc.constantFrom('a', ...loneSurrogates, ...controls, ...unicode),
    maxLength: 12,
  }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc
    .tuple(fc.constantFrom(255, 256, 4000, 30_000), fc.constantFrom('a', 'é', '😀', '\uD800'))
    .map(([length, char]) => char.repeat(length)),
);

// prettier-ignore
const numberLiterals = [
  '1.0', '0.0', '-0', '1E2', '1.5', '-0.5', '1e308', '5e-324', '1e400', '-1e400',
  '9007199254740992', '9007199254740993', '-9007199254740992', '9223372036854775807',
  '9223372036854775808', '-9223372036854775809', '18446744073709551616', `1${'0'.repeat(400)}`,
  // Not JSON at all: the body becomes invalid JSON.
  'NaN', 'Infinity', '-Infinity', '0x10', '+1', '.5', '01', '1e',
];

/** JSON numbers beyond what the contract accepts: huge, negative, fractional, non-finite, out of int64. */
const hostileNumbers: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...numberLiterals).map((text) => new JsonLiteral(text)),
  fc.double().map((n) => new JsonLiteral(Object.is(n, -0) ? '-0' : String(n))),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => new JsonLiteral(String(n))),
  fc.integer(),
);

/** Deep nesting: `[[[…1…]]]` or `{"a":{"a":…1…}}`, up to a body beyond the size limit. */
const deeplyNested = fc
  .tuple(fc.integer({ min: 50, max: 30_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => {
    const close = open === '[' ? ']' : '}';
    return new JsonLiteral(`${open.repeat(depth)}1${close.repeat(depth)}`);
  });

/** Objects whose keys would pollute a prototype if merged naively. */
const pollutingObjects = fc
  .constantFrom(
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"__proto__":null}',
    '{"prototype":{"polluted":true},"toString":1,"hasOwnProperty":"x"}',
  )
  .map((text) => new JsonLiteral(text));

/** Any JSON value of the wrong kind, number or string. */
const hostileValues: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}),
  hostileStrings,
  hostileNumbers,
  fc.jsonValue({ maxDepth: 3 }),
  deeplyNested,
  pollutingObjects,
);

/** Body keys: the contract's own, look-alikes, prototype keys, anything. */
const hostileKeys = (names: string[]) =>
  fc.oneof(
    fc.constantFrom(...names),
    // prettier-ignore
    fc.constantFrom('id', 'Name', ' name', 'name\u0000', '', '__proto__', 'constructor', 'prototype', 'toString', '$where'),
    hostileStrings,
  );

// prettier-ignore
const numberTexts = [
  '1', '0', '-1', '100', '101', '-0', '1.0', '1.5', '1e2', 'Infinity', '-Infinity', 'NaN', '1e400',
  '-1e400', '9007199254740991', '9007199254740992', '-9007199254740992', '18446744073709551616',
  '%201', '+1', '%2B1', '0x10', '0b1', '1_000', '\u0661',
];
// prettier-ignore
const otherWireTexts = [
  '', 'true', 'null', '%5B%5D', 'AVAILABLE', 'available%20', 'sold,pending', 'MTA', 'MA', 'LTE',
  'AAAA', '.', '..', '%2e%2e', '%2F', '1;x=1', '%', '%zz', '%E0%A4', '%ED%A0%80', '%C0%AF', '%FF',
  '%00', 'é', '😀',
];

// prettier-ignore
const notJson = [
  '', ' ', 'null', 'true', '0', '"Rex"', '{', '}', '[', '{,}', '{"name":}', '{"name" "Rex"}',
  '{"name":"Rex",}', "{'name':'Rex'}", 'undefined', 'NaN', '\uFEFF', '{"a":1}garbage',
];

// prettier-ignore
const headerTexts = [
  '*', '"a"', 'W/"a"', '"a", "b"', 'a', '*, "a"', '', ' ', '"a', '"', '""', '"a b"', '"\\"', 'w/"a"',
  '"é"', '\uD800', `"${'x'.repeat(255)}"`, 'x'.repeat(256), `"${'x'.repeat(256)}"`, 'x'.repeat(5000),
  'a\u0001',
];

/** Query or path text as written on the wire: valid, invalid or half percent-encoding, raw bytes. */
const hostileWireText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...numberTexts),
  fc.double().map(String),
  fc.constantFrom(...otherWireTexts),
  hostileStrings.map(percentEncode),
);

// ---------------------------------------------------------------- the mutations

const mutation = <T>(
  kind: string,
  choices: fc.Arbitrary<T>,
  describe: (choice: T) => string,
  apply: (request: DraftRequest, choice: T) => DraftRequest,
): fc.Arbitrary<Mutation> =>
  choices.map((choice) => ({
    kind,
    note: `${kind}: ${describe(choice)}`,
    apply: (request) => apply(request, choice),
  }));

const show = (value: unknown) => {
  const text = typeof value === 'string' ? JSON.stringify(value) : jsonText(value);
  return text.length > 80 ? `${text.slice(0, 80)}… (${text.length})` : text;
};

/** The JSON object the body holds, or `{}` when the body is absent or not an object. */
const bodyObject = (request: DraftRequest): Record<string, unknown> =>
  request.body && 'json' in request.body && isPlainObject(request.body.json)
    ? request.body.json
    : {};
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof JsonLiteral);

const withBody = (request: DraftRequest, body: Body): DraftRequest => ({ ...request, body });
const withHeaders = (request: DraftRequest, headers: readonly Header[]): DraftRequest => ({
  ...request,
  headers,
});
const withoutHeader = (request: DraftRequest, name: string) =>
  request.headers.filter(([given]) => given.toLowerCase() !== name.toLowerCase());
const setHeader = (request: DraftRequest, name: string, value: string | undefined) =>
  withHeaders(request, [
    ...withoutHeader(request, name),
    ...(value === undefined ? [] : [[name, value] as const]),
  ]);

/** Every kind of mutation, for requests whose parameter and body names are `names`. */
const kindsFor = (names: Record<'query' | 'header' | 'body', string[]>) => ({
  /** A body field set to a value of the wrong type or range, or a new, unknown one. */
  setField: mutation(
    'setField',
    fc.tuple(hostileKeys(names.body), hostileValues),
    ([key, value]) => `${show(key)} = ${show(value)}`,
    (request, [key, value]) => {
      const body = { ...bodyObject(request) };
      // Defined, not assigned: a "__proto__" key becomes an own property, as JSON.parse makes it.
      Object.defineProperty(body, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return withBody(request, { json: body });
    },
  ),
  /** A body field left out. */
  dropField: mutation('dropField', fc.constantFrom(...names.body), show, (request, key) => {
    const { [key]: _dropped, ...rest } = bodyObject(request);
    return withBody(request, { json: rest });
  }),
  /** The whole body replaced by another JSON value: non-object, nested, polluting. */
  replaceBody: mutation('replaceBody', hostileValues, show, (request, value) =>
    withBody(request, { json: value }),
  ),
  /** A key sent twice in one object: `{"name":…,"name":…}`. */
  duplicateKey: mutation(
    'duplicateKey',
    fc.tuple(hostileKeys(names.body), hostileValues),
    ([key, value]) => `${show(key)} again as ${show(value)}`,
    (request, [key, value]) => {
      const text = bodyText(request.body) || '{}';
      const member = `${JSON.stringify(key)}:${jsonText(value)}`;
      return withBody(request, {
        text: text.startsWith('{')
          ? `{${member}${text === '{}' ? '' : ','}${text.slice(1)}`
          : `{${member}}`,
      });
    },
  ),
  /** JSON text that is not JSON: cut short, with trailing junk, single quotes, comments… */
  breakJson: mutation(
    'breakJson',
    fc.oneof(
      fc.nat().map((at) => ({ cut: at })),
      fc
        .constantFrom('x', ',', '}', ' {}', '\u0000', '/*c*/', '//c\n')
        .map((junk) => ({ append: junk })),
      fc.constantFrom(...notJson).map((text) => ({ replace: text })),
      fc.constant({ bom: true }),
    ),
    show,
    (request, change) => {
      const text = bodyText(request.body) || '{}';
      if ('cut' in change)
        return withBody(request, { text: text.slice(0, change.cut % text.length) });
      if ('append' in change) return withBody(request, { text: text + change.append });
      if ('replace' in change) return withBody(request, { text: change.replace });
      return withBody(request, { text: `\uFEFF${text}` });
    },
  ),
  /** Bytes that are not UTF-8 inside the first string of the body. */
  invalidUtf8: mutation(
    'invalidUtf8',
    // prettier-ignore
    fc.constantFrom([0xff], [0x80], [0xc3], [0xc0, 0xaf], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]),
    (bytes) => Buffer.from(bytes).toString('hex'),
    (request, bytes) => {
      const text = Buffer.from(bodyText(request.body) || '{"name":"","categoryId":1}', 'utf8');
      const at = text.indexOf('":"') >= 0 ? text.indexOf('":"') + 3 : text.length;
      return withBody(request, {
        bytes: Buffer.concat([text.subarray(0, at), Buffer.from(bytes), text.subarray(at)]),
      });
    },
  ),
  /** Whitespace padding around the JSON to a total size at or around the 100 KiB limit, or far beyond. */
  bodySize: mutation(
    'bodySize',
    fc.constantFrom(-1, 0, 1, 4096, 200_000).map((delta) => 100 * 1024 + delta),
    (size) => `${size} bytes`,
    (request, size) => {
      const text = bodyText(request.body) || '{}';
      const padding = Math.max(0, size - Buffer.byteLength(text, 'utf8'));
      return withBody(request, { text: `${' '.repeat(padding)}${text}` });
    },
  ),
  /** Another, a missing, or a second Content-Type. */
  contentType: mutation(
    'contentType',
    fc.tuple(
      fc.constantFrom('replace', 'add', 'remove'),
      // prettier-ignore
      fc.constantFrom(
        'text/plain', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"',
        'APPLICATION/JSON', 'application/json; boundary=x', 'application/json; charset=latin1',
        'application/json; charset=utf-16', 'application/json; charset=bogus', 'text/json',
        'application/json-patch+json', 'application/merge-patch+json', 'application/vnd.api+json',
        'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml',
        'application/*', '*/*', 'application', '', ';;;', 'application/json, text/plain',
      ),
    ),
    ([how, type]) => `${how} ${JSON.stringify(type)}`,
    (request, [how, type]) =>
      how === 'add'
        ? withHeaders(request, [...request.headers, ['Content-Type', type]])
        : setHeader(request, 'Content-Type', how === 'remove' ? undefined : type),
  ),
  /** A Content-Encoding the body does not have. */
  contentEncoding: mutation(
    'contentEncoding',
    fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'compress', 'bogus', 'gzip, gzip', 'zstd'),
    show,
    (request, encoding) => setHeader(request, 'Content-Encoding', encoding),
  ),
  /** Bad forms of the credential: none, another scheme, a damaged or foreign key, two headers. */
  authorization: mutation(
    'authorization',
    // prettier-ignore
    fc.constantFrom(
      'none', 'bearer KEY', 'BEARER KEY', 'Bearer  KEY', 'Bearer KEY ', 'Bearer\tKEY', 'Bearer',
      'Bearer ', 'KEY', 'Basic KEY', 'Token KEY', 'Bearer KEY_SHORT', 'Bearer KEYx', 'Bearer KEY_UPPER',
      `Bearer psk_${'A'.repeat(43)}`, 'Bearer KEY, Bearer KEY', 'twice', 'Bearer é', `Bearer ${'x'.repeat(9000)}`,
    ),
    show,
    (request, form) => {
      const key =
        /\S+$/.exec(headerOf(request, 'authorization') ?? '')?.[0] ?? `psk_${'B'.repeat(43)}`;
      if (form === 'none') return setHeader(request, 'Authorization', undefined);
      if (form === 'twice')
        return withHeaders(request, [...request.headers, ['Authorization', 'Bearer psk_nope']]);
      const value = form
        .replace('KEY_SHORT', key.slice(0, -1))
        .replace('KEY_UPPER', key.toUpperCase())
        .replace(/KEY/g, key);
      return setHeader(
        request,
        'Authorization',
        form.startsWith('Basic')
          ? `Basic ${Buffer.from(value.slice(6)).toString('base64')}`
          : value,
      );
    },
  ),
  /** A header parameter of the contract set to a malformed, odd or very long value, or sent twice. */
  headerParameter: mutation(
    'headerParameter',
    fc.tuple(fc.constantFrom(...names.header), fc.constantFrom(...headerTexts), fc.boolean()),
    ([name, value, twice]) => `${twice ? 'another ' : ''}${name}: ${show(value)}`,
    (request, [name, value, twice]) =>
      twice
        ? withHeaders(request, [...request.headers, [name, value]])
        : setHeader(request, name, value),
  ),
  /** Headers that are odd, unsafe or very long. */
  header: mutation(
    'header',
    fc.oneof(
      // prettier-ignore
      fc.constantFrom<[string, string]>(
        ['Accept', 'text/html'], ['Accept-Charset', 'latin1'], ['Expect', '100-continue'],
        ['Transfer-Encoding', 'chunked'], ['X-Request-Id', 'x'.repeat(200)], ['X-Request-Id', "' OR 1=1"],
        ['X-Request-Id', '../é\u00ff'], ['X-Forwarded-For', '1.2.3.4, garbage'], ['X-HTTP-Method-Override', 'DELETE'],
        ['Cookie', '__proto__=1'], ['Range', 'bytes=0-1'], ['If-None-Match', '*'], ['__proto__', 'x'],
        ['X-Utf8', 'é😀'], ['X-Control', 'a\u0001b'],
      ),
      fc
        .constantFrom(1000, 8000, 17_000, 70_000)
        .map((length): [string, string] => ['X-Long', 'a'.repeat(length)]),
    ),
    ([name, value]) => `${name}: ${show(value)}`,
    (request, [name, value]) => withHeaders(request, [...request.headers, [name, value]]),
  ),
  /** A method the path does not have, an unknown one, or one in lower case. */
  method: mutation(
    'method',
    // prettier-ignore
    fc.constantFrom(
      'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'MKCOL',
      'SEARCH', 'PURGE', 'LINK', 'REPORT', 'get', 'post', 'FOO',
    ),
    (method) => method,
    (request, method) => ({ ...request, method }),
  ),
  /** The last path segment replaced, or one added: non-integers, out of range, bad encoding. */
  pathSegment: mutation(
    'pathSegment',
    fc.tuple(fc.boolean(), hostileWireText),
    ([append, segment]) => `${append ? 'append' : 'replace last'} ${JSON.stringify(segment)}`,
    (request, [append, segment]) => ({
      ...request,
      path: append ? `${request.path}/${segment}` : request.path.replace(/[^/]*$/, segment),
    }),
  ),
  /** The same path written otherwise: case, slashes, dot segments, another version, absolute form. */
  pathShape: mutation(
    'pathShape',
    // prettier-ignore
    fc.constantFrom(
      'trailing slash', 'upper', 'double slash', 'dot segment', 'no base', 'v2', 'encoded base',
      'absolute', 'asterisk',
    ),
    (shape) => shape,
    (request, shape) => {
      const path = request.path;
      const changed = {
        upper: path.toUpperCase(),
        'trailing slash': `${path}/`,
        'double slash': `/${path}`,
        'dot segment': path.replace(/\/([^/]*)$/, '/./$1'),
        'no base': path.replace(/^\/[^/]+/, ''),
        v2: path.replace(/^\/[^/]+/, '/v2'),
        'encoded base': path.replace(
          /^\/([^/]+)/,
          (_, base: string) => `/${percentEncodeAll(base)}`,
        ),
        absolute: `http://127.0.0.1${path}`,
        asterisk: '*',
      }[shape];
      return { ...request, path: changed };
    },
  ),
  /** A very long URL: a long query value or path segment. */
  longUrl: mutation(
    'longUrl',
    fc.tuple(fc.boolean(), fc.constantFrom(2000, 8000, 16_500, 65_000)),
    ([inPath, length]) => `${length} characters in the ${inPath ? 'path' : 'query'}`,
    (request, [inPath, length]) =>
      inPath
        ? { ...request, path: `${request.path}/${'1'.repeat(length)}` }
        : { ...request, query: [...request.query, ['pad', 'a'.repeat(length)]] },
  ),
  /** A parameter of the contract set to a hostile value (replacing any it had). */
  queryValue: mutation(
    'queryValue',
    fc.tuple(fc.constantFrom(...names.query), hostileWireText),
    ([name, value]) => `${name}=${value.slice(0, 80)}`,
    (request, [name, value]) => ({
      ...request,
      query: [...request.query.filter(([given]) => given !== name), [name, value]],
    }),
  ),
  /** A parameter sent twice. */
  duplicateParameter: mutation(
    'duplicateParameter',
    fc.tuple(fc.constantFrom(...names.query), hostileWireText),
    ([name, value]) => `${name} again as ${value.slice(0, 80)}`,
    (request, [name, value]) => ({
      ...request,
      query: [
        ...request.query,
        ...(request.query.some(([given]) => given === name) ? [] : [[name, '1'] as const]),
        [name, value],
      ],
    }),
  ),
  /** Parameters the contract does not have, bare names, empty pairs. */
  unknownParameter: mutation(
    'unknownParameter',
    fc.tuple(
      // prettier-ignore
      fc.constantFrom(
        'foo', 'Limit', 'LIMIT', '%20limit', 'limit[]', 'limit[0]', 'status[$ne]', '__proto__',
        'constructor', 'prototype', 'toString', 'hasOwnProperty', '', '&', '?', '=', 'a%zzb', '%00',
        'cursor%00',
      ),
      fc.option(hostileWireText, { nil: undefined }),
    ),
    ([name, value]) => (value === undefined ? name : `${name}=${value.slice(0, 80)}`),
    (request, [name, value]) => ({ ...request, query: [...request.query, [name, value]] }),
  ),
});

export const mutationKinds = Object.keys(kindsFor({ query: [''], header: [''], body: [''] }));

/** The kinds that spoil each part a request may have. */
const kindsOfPart = {
  query: ['queryValue', 'duplicateParameter', 'unknownParameter'],
  header: ['headerParameter'],
  body: ['setField', 'dropField', 'replaceBody', 'duplicateKey', 'breakJson', 'invalidUtf8'],
};

/**
 * One mutation of any kind, for requests of the operation; the kinds that spoil what the
 * operation has (its query parameters, header parameters, body) weigh three times as much.
 */
export function mutationsOf(operation: Operation): fc.Arbitrary<Mutation> {
  const has = {
    query: operation.parameters.some((parameter) => parameter.in === 'query'),
    header: operation.parameters.some((parameter) => parameter.in === 'header'),
    body: operation.body !== undefined,
  };
  const spoilsWhatItHas = (kind: string) =>
    (Object.keys(kindsOfPart) as (keyof typeof kindsOfPart)[]).some(
      (part) => has[part] && kindsOfPart[part].includes(kind),
    );
  return fc.oneof(
    ...Object.entries(kindsFor(namesFor(operation))).map(([kind, arbitrary]) => ({
      weight: spoilsWhatItHas(kind) ? 3 : 1,
      arbitrary,
    })),
  );
}

function percentEncodeAll(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => `%${byte.toString(16).toUpperCase()}`)
    .join('');
}
