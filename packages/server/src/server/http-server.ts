import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { HttpLimits } from '../config/index.js';
import { expressMessageClasses } from './express-messages.js';

export interface HttpServer {
  server: Server;
  /**
   * For a graceful shutdown: every response not yet sent, and every one to requests still
   * arriving on open connections, says `Connection: close`, so a client learns the connection
   * ends with the answer instead of finding it reset when it sends the next request.
   */
  stopKeepingAlive(): void;
}

/**
 * The HTTP server with the transport limits applied, so that no client can hold a connection or
 * the server by being slow or large: headers must arrive within `headersTimeoutMs` and a whole
 * request within `requestTimeoutMs` (408; this defeats slowloris, which trickles its headers or
 * body), idle keep-alive connections close after `keepAliveTimeoutMs`, and a request head over
 * `maxHeaderBytes` gets 431. Node checks the timeouts every `connectionsCheckingInterval`, set
 * here to a tenth of the headers timeout (default: 30 s). Requests and responses are made with
 * the app's own prototypes (`expressMessageClasses`).
 */
export function createHttpServer(app: Express, limits: HttpLimits): HttpServer {
  const server = createServer({
    ...expressMessageClasses(app),
    maxHeaderSize: limits.maxHeaderBytes,
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.floor(limits.headersTimeoutMs / 10)),
  });
  server.on('request', app);
  let stopping = false;
  return {
    server,
    stopKeepingAlive() {
      if (stopping) return;
      stopping = true;
      closeWithEachHead(app.response, server);
    },
  };
}

/**
 * From now on, each head written for a request to `server` says `Connection: close`: its
 * answer if it was under way, and the answers to requests still arriving on open connections.
 * Installed on the prototype the app's responses have (`responsePrototype`), around the
 * `writeHead` every head goes through (a route's, Express's, Node's implicit one at `res.end`):
 * nothing is kept per request while the server runs, and nothing runs per request before the
 * stop. The server is found through the request's socket, which a response waiting behind a
 * pipelined one does not have yet. A sub-app mounted in the app gives the responses it answers
 * a prototype of its own, which this does not reach (this app mounts none).
 *
 * The version before kept every unanswered response in a table and listened to its `close`,
 * to set the header on each at the stop. Measured on Node.js 24.21.0 under callgrind (29
 * November 2026; docs/benchmarks.md, *Changes that mattered*): the main thread's instructions
 * per request, list 20 184 → 180 thousand, creates 242 → 237.
 */
function closeWithEachHead(responsePrototype: object, server: Server): void {
  // The `writeHead` the responses have now (the gathered headers': writeGatheredHeadersOn):
  // taken once, as the process is stopping.
  const writeHead = (responsePrototype as Pick<ServerResponse, 'writeHead'>).writeHead as (
    ...a: unknown[]
  ) => ServerResponse;
  Object.defineProperty(responsePrototype, 'writeHead', {
    configurable: true,
    writable: true,
    value: function writeHeadClosing(this: ServerResponse, ...args: unknown[]) {
      const socket = this.req.socket as (typeof this.req.socket & { server?: unknown }) | null;
      if (socket?.server === server && !this.headersSent) this.setHeader('Connection', 'close');
      return writeHead.apply(this, args);
    },
  });
}
