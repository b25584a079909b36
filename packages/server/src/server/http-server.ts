import { createServer, type RequestListener, type Server } from 'node:http';
import type { HttpLimits } from '../config/index.js';

/**
 * The HTTP server with the transport limits applied, so that no client can hold a connection or
 * the server by being slow or large: headers must arrive within `headersTimeoutMs` and a whole
 * request within `requestTimeoutMs` (Node answers 408 and closes; this defeats slowloris, which
 * trickles its headers or body), idle keep-alive connections close after `keepAliveTimeoutMs`,
 * and a request head over `maxHeaderBytes` gets 431. Node checks the timeouts every
 * `connectionsCheckingInterval`, set here to a tenth of the headers timeout (default: 30 s).
 */
export function createHttpServer(app: RequestListener, limits: HttpLimits): Server {
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.floor(limits.headersTimeoutMs / 10)),
    },
    app,
  );
  return server;
}
