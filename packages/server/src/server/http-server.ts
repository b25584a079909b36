import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { HttpLimits } from '../config/index.js';
import { InFlightTable } from '../in-flight-table.js';
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
  // Not a Set: see InFlightTable.
  const unanswered = new InFlightTable<ServerResponse>();
  let closing = false;
  // One listener (an emit copies its listener array when there are several). Before the app,
  // so that even an answer the app sends at once can carry Connection: close. `on`, not
  // `once`: 'close' is emitted once, and `once` wraps the listener per request.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (closing) res.setHeader('Connection', 'close');
    const id = unanswered.add(res);
    res.on('close', () => unanswered.take(id));
    app(req, res);
  });
  return {
    server,
    stopKeepingAlive() {
      closing = true;
      for (const res of unanswered.values())
        if (!res.headersSent) res.setHeader('Connection', 'close');
    },
  };
}
