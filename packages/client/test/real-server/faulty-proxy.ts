import { createServer, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { deferred } from './support.js';

/**
 * What the proxy does to the first `POST /v1/pets` once the real server has answered it (the
 * pet is committed): `drop` destroys the client's connection without a byte of the answer;
 * `hold` never answers (the client's time limit must end it); `bad-gateway` answers `502`
 * with no body, as a load balancer does when it loses the upstream's answer.
 */
export type Fault = 'drop' | 'hold' | 'bad-gateway';

/** One request the proxy forwarded, and the real server's answer to it. */
export interface Exchange {
  idempotencyKey: string | undefined;
  status: number;
  replayed: boolean;
  /** Whether the client got the answer (false for the faulted one). */
  delivered: boolean;
}

export interface FaultyProxy {
  /** The API through the proxy: `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  /** `METHOD /path?query status` of every request the proxy forwarded, preflights included. */
  traffic: string[];
  /** Every `POST /v1/pets` forwarded, in order. */
  exchanges: Exchange[];
  /** Resolves once the server has answered the faulted request. */
  faulted: Promise<void>;
}

const proxies: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((close) => close()));
});

function forwardedHeaders(headers: IncomingHttpHeaders, target: URL): IncomingHttpHeaders {
  return { ...headers, host: target.host };
}

/**
 * An HTTP proxy on loopback in front of the real server at `target`: it forwards every request
 * and answer as they are, and records them, except the first `POST /v1/pets` when a `fault`
 * is given, which it forwards and whose answer it loses as `fault` says. A fault between the
 * commit and the response, which no in-process double can produce: the server did the work,
 * the client never learns it. Closed after the test.
 */
export async function faultyProxy(target: string, fault?: Fault): Promise<FaultyProxy> {
  const upstream = new URL(target);
  const exchanges: Exchange[] = [];
  const traffic: string[] = [];
  const faulted = deferred();
  let faultPending = fault !== undefined;

  const server = createServer((clientRequest, clientResponse) => {
    const isCreate = clientRequest.method === 'POST' && clientRequest.url === '/v1/pets';
    const faultThis = isCreate && faultPending;
    if (faultThis) faultPending = false;
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: clientRequest.method,
        path: clientRequest.url,
        headers: forwardedHeaders(clientRequest.headers, upstream),
        agent: false,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          traffic.push(`${clientRequest.method} ${clientRequest.url} ${answer.statusCode}`);
          if (isCreate) {
            const key = clientRequest.headers['idempotency-key'];
            exchanges.push({
              idempotencyKey: typeof key === 'string' ? key : undefined,
              status: answer.statusCode ?? 0,
              replayed: answer.headers['idempotent-replayed'] === 'true',
              delivered: !faultThis,
            });
          }
          if (!faultThis) {
            clientResponse.writeHead(answer.statusCode ?? 502, answer.headers);
            clientResponse.end(Buffer.concat(chunks));
            return;
          }
          if (fault === 'drop') clientRequest.socket.destroy();
          if (fault === 'bad-gateway') clientResponse.writeHead(502).end();
          faulted.resolve();
        });
      },
    );
    forward.on('error', () => clientRequest.socket.destroy());
    clientRequest.pipe(forward);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxies.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    traffic,
    exchanges,
    faulted: faulted.promise,
  };
}
