import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PetstoreApp } from './app.js';

export interface Listening {
  server: Server;
  /** The address the server listens on, as a URL (`http://0.0.0.0:8080` when on all interfaces). */
  url: string;
}

/**
 * Listens on `host:port`, then warms the validator up through a loopback address before
 * resolving, so the first real request does not pay for schema compilation (DESIGN.md).
 * A wildcard host (`0.0.0.0`, `::`) is warmed up through its loopback (`127.0.0.1`, `[::1]`).
 *
 * @example
 * ```ts
 * const { server, url } = await listen(app, 8080, '127.0.0.1');
 * ```
 */
export async function listen(app: PetstoreApp, port: number, host: string): Promise<Listening> {
  const server = app.listen(port, host);
  await once(server, 'listening');
  const { address, family, port: bound } = server.address() as AddressInfo;
  const url = `http://${family === 'IPv6' ? `[${address}]` : address}:${bound}`;
  const loopback =
    address === '0.0.0.0'
      ? `http://127.0.0.1:${bound}`
      : address === '::'
        ? `http://[::1]:${bound}`
        : url;
  await app.warmUp(loopback);
  return { server, url };
}
