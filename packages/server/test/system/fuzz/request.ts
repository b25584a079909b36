import type { WireRequest } from './wire.js';

/**
 * A request the fuzz suite builds and mutates before it goes on the wire: structured enough for
 * a mutation to find the field, parameter or header it changes, raw enough to hold what no
 * client library would send (invalid percent-encoding, duplicate parameters, odd methods,
 * bodies that are not JSON at all).
 */
export interface DraftRequest {
  method: string;
  /** The path as written on the wire (percent-encoded, or deliberately not). */
  path: string;
  /** Query pairs as written on the wire; a pair without a value is sent as `name` alone. */
  query: readonly QueryPair[];
  /** In order, duplicates allowed. */
  headers: readonly Header[];
  body?: Body | undefined;
}

export type QueryPair = readonly [name: string, value?: string | undefined];
export type Header = readonly [name: string, value: string];

/** A JSON value (written by `jsonText`), a text (sent as UTF-8), or raw bytes. */
export type Body = { json: unknown } | { text: string } | { bytes: Uint8Array };

/** JSON text written exactly as given, e.g. a number JSON.stringify cannot write: `1e400`, `-0`, `9007199254740993`. */
export class JsonLiteral {
  constructor(readonly text: string) {}
}

/** JSON.stringify, except that `JsonLiteral`s are written as they are and `__proto__` keys are kept. */
export function jsonText(value: unknown): string {
  if (value instanceof JsonLiteral) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.keys(value).map(
      (key) => `${JSON.stringify(key)}:${jsonText((value as Record<string, unknown>)[key])}`,
    );
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The body's bytes (a text's lone surrogates become U+FFFD, as any UTF-8 encoder writes them). */
export function bodyBytes(body: Body): Uint8Array {
  if ('bytes' in body) return body.bytes;
  return Buffer.from('text' in body ? body.text : jsonText(body.json), 'utf8');
}

/** The body as text, for mutations that work on the JSON text. */
export function bodyText(body: Body | undefined): string {
  if (body === undefined) return '';
  if ('text' in body) return body.text;
  return 'json' in body ? jsonText(body.json) : Buffer.from(body.bytes).toString('utf8');
}

/** Percent-encodes the UTF-8 bytes of `text`, keeping RFC 3986's unreserved characters. */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9\-._~]/.test(char)
        ? char
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/** The first value of a header (case-insensitive name), as Node keeps it. */
export function headerOf(request: DraftRequest, name: string): string | undefined {
  return request.headers.find(([given]) => given.toLowerCase() === name.toLowerCase())?.[1];
}

/** The request as it is written on the socket; a `Transfer-Encoding: chunked` body is chunked. */
export function toWire(request: DraftRequest): WireRequest {
  const query = request.query
    .map(([name, value]) => (value === undefined ? name : `${name}=${value}`))
    .join('&');
  const bytes = request.body === undefined ? undefined : bodyBytes(request.body);
  const chunked = /chunked/i.test(headerOf(request, 'transfer-encoding') ?? '');
  return {
    method: request.method,
    target: query === '' ? request.path : `${request.path}?${query}`,
    headers: request.headers,
    body: chunked ? chunk(bytes ?? new Uint8Array()) : bytes,
  };
}

function chunk(bytes: Uint8Array): Uint8Array {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 4096) {
    const piece = bytes.subarray(at, at + 4096);
    parts.push(
      Buffer.from(`${piece.length.toString(16)}\r\n`),
      Buffer.from(piece),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** A readable, escaped rendering of the request for failure reports (long parts shortened). */
export function describeRequest(request: DraftRequest): string {
  const { target, headers } = toWire(request);
  const lines = [
    `${request.method} ${shorten(target)}`,
    ...headers.map(([name, value]) => `${name}: ${shorten(value)}`),
  ];
  if (request.body !== undefined) {
    lines.push(
      'bytes' in request.body
        ? `<bytes> ${Buffer.from(request.body.bytes).toString('hex').slice(0, 400)}`
        : shorten(bodyText(request.body)),
    );
  }
  return lines.join('\n');
}

/** JSON-escaped (so lone surrogates, NUL and controls are visible) and cut to 300 characters. */
function shorten(text: string): string {
  const escaped = JSON.stringify(text).slice(1, -1);
  return escaped.length <= 300
    ? escaped
    : `${escaped.slice(0, 300)}… (${text.length} characters in all)`;
}
