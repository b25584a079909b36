import { connect } from 'node:net';

/**
 * Raw HTTP/1.1 over a TCP socket. `fetch` and `node:http` refuse much of what the fuzz suite
 * sends (odd method tokens, bytes outside ASCII in the request-target, control characters in
 * header values, duplicate headers in a chosen order), so requests are written byte for byte
 * and the answer is read until the server closes the connection (`Connection: close`).
 */

/** A request as it goes on the wire: the method and request-target exactly as written. */
export interface WireRequest {
  method: string;
  /** Path and query as sent; characters beyond ASCII go out as their UTF-8 bytes. */
  target: string;
  /** In order, duplicates allowed. `Host`, `Content-Length` and `Connection` are added. */
  headers: readonly (readonly [string, string])[];
  body?: Uint8Array | undefined;
}

export interface WireResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
}

/** Longest time one request may take before it counts as unanswered. */
const ANSWER_TIMEOUT_MS = 15_000;

/** Sends one request on a new connection to `origin` (`http://127.0.0.1:PORT`); resolves with the answer. */
export function send(origin: string, request: WireRequest): Promise<WireResponse> {
  const { hostname, port } = new URL(origin);
  const body = request.body ?? new Uint8Array();
  const hasLength = request.headers.some(([name]) =>
    /^(content-length|transfer-encoding)$/i.test(name),
  );
  const lines = [
    `${request.method} ${request.target} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    ...request.headers.map(([name, value]) => `${name}: ${value}`),
    ...(hasLength || (body.length === 0 && !['POST', 'PUT', 'PATCH'].includes(request.method))
      ? []
      : [`Content-Length: ${body.length}`]),
    'Connection: close',
  ];
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) });
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => {
      socket.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`));
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may answer and close before it has read the whole body (413, 431…).
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
      reject(error);
    });
    socket.on('close', () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error as Error);
      }
    });
    socket.write(Buffer.concat([head, body]));
  });
}

/** Parses one HTTP/1.1 response (Content-Length, chunked, or read to the close). */
export function parseResponse(bytes: Buffer): WireResponse {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP response (${bytes.length} bytes received)`);
  const [statusLine = '', ...headerLines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!match) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const rest = bytes.subarray(end + 4);
  // An interim answer (100 Continue to `Expect: 100-continue`) precedes the final one.
  if (match[1]!.startsWith('1')) return parseResponse(rest);
  const body = /chunked/i.test(headers['transfer-encoding'] ?? '') ? dechunk(rest) : rest;
  const length = headers['content-length'];
  return {
    status: Number(match[1]),
    headers,
    body: length === undefined ? body : body.subarray(0, Number(length)),
  };
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) throw new Error('truncated chunked body');
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
