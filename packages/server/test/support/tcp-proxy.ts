import { once } from 'node:events';
import { type AddressInfo, createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy of the test's own between a server and a database, so a test can take the
 * database away from that server alone (others keep using it): `cut` stops listening and
 * destroys every open connection, as a stopped or unreachable database host does (new
 * connections are refused, open ones end); `restore` listens on the same port again.
 */
export interface TcpProxy {
  /** The loopback port the proxy listens on. */
  port: number;
  /** Stops accepting (connections are refused) and destroys every open connection. */
  cut(): Promise<void>;
  /** Accepts connections on the same port again. */
  restore(): Promise<void>;
  /** Cuts, for good. */
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (an ephemeral port) forwarding to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };
  const server = createServer((client) => {
    const upstream = createConnection(target);
    track(client);
    track(upstream);
    // Either side failing or closing ends the pair, as one connection.
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.on('error', () => to.destroy());
      from.once('close', () => to.destroy());
      from.pipe(to);
    }
  });
  const listen = async (port: number) => {
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
  };
  await listen(0);
  const { port } = server.address() as AddressInfo;
  let listening = true;

  const cut = async () => {
    if (listening) {
      listening = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of open) socket.destroy();
      await closed;
    }
    for (const socket of open) socket.destroy();
  };
  return {
    port,
    cut,
    async restore() {
      if (listening) return;
      await listen(port);
      listening = true;
    },
    close: cut,
  };
}
