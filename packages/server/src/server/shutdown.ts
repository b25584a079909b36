/**
 * Graceful shutdown without dropping a request: drain (readiness fails, everything else is still
 * served), stop accepting, answer what is in flight, then exit; and the signals that start it.
 */
import { constants } from 'node:os';
import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { ShutdownTimes } from '../config/index.js';
import type { Logger } from '../logger/index.js';

/** The last second before the shutdown timeout is kept for closing the limiter and the store. */
const CLOSE_RESERVE_MS = 1000;

/** What `RunningServer.close` needs of the server it stops. */
export interface Stoppable {
  server: Server;
  logger: Logger;
  /** From now on `/readyz` answers 503 and every response says `Connection: close`. */
  startDraining(): void;
  /** Closes the limiter and the store (those the server opened). */
  closeOwned(): Promise<void>;
}

/**
 * The shutdown sequence, from the moment of the signal:
 *
 * 1. **Drain** for `drainMs`: `/readyz` answers 503 while every other request is served as
 *    before, on new connections too; each response says `Connection: close`, so a connection in
 *    use ends right after an answer, which its client has read, never under a request it sent.
 * 2. **Stop accepting.** The listener closes, and with it (Node's `server.close()` calls
 *    `closeIdleConnections()`) every connection idle at that moment: idle since before the
 *    signal, so for at least the drain, in which the balancer marked the instance down and a
 *    balancer's or client's idle timeout shorter than `HTTP_KEEP_ALIVE_TIMEOUT_MS` closed it
 *    already. Node counts a connection as idle only between requests: one whose request has
 *    begun to arrive, or accepted but without a request yet, is left to be answered.
 * 3. **Answer what is in flight**: each answer says `Connection: close`, and its connection
 *    ends after it. Connections that become idle later (an answer whose headers went out before
 *    the signal) are closed every 100 ms. Whatever still runs `timeoutMs - CLOSE_RESERVE_MS`
 *    after the signal is cut, and said so in the log.
 * 4. The limiter and the store close (the SQLite writer commits what it holds first).
 */
export async function shutDown(
  stoppable: Stoppable,
  { drainMs, timeoutMs }: ShutdownTimes,
): Promise<void> {
  const { server, logger } = stoppable;
  const started = performance.now();
  stoppable.startDraining();
  if (drainMs > 0) await delay(drainMs);
  logger.info('drained: no longer accepting connections, finishing requests in flight');
  const cutAfter = Math.max(0, timeoutMs - CLOSE_RESERVE_MS - (performance.now() - started));
  const cut = await stopAccepting(server, cutAfter);
  if (cut > 0) {
    logger.warn(
      { connections: cut },
      'shutdown timeout: connections still busy were cut (SHUTDOWN_TIMEOUT_SECONDS)',
    );
  }
  await stoppable.closeOwned();
}

/**
 * Closes the listener and resolves once every connection has ended, with the number of
 * connections that had to be cut after `cutAfterMs` (0: all were answered).
 */
async function stopAccepting(server: Server, cutAfterMs: number): Promise<number> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  let cut = 0;
  const cutAll = () =>
    server.getConnections((_error, count) => {
      cut = count;
      server.closeAllConnections();
    });
  const force = setTimeout(cutAll, cutAfterMs);
  const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
  try {
    await closed;
  } finally {
    clearTimeout(force);
    clearInterval(closeIdle);
  }
  return cut;
}

export interface SignalTarget {
  logger: Logger;
  shutdown: ShutdownTimes;
  close(): Promise<void>;
}

/** The signals that stop the server gracefully: a process manager's, Ctrl-C's, a closed terminal's. */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * SIGTERM, SIGINT or SIGHUP starts the graceful shutdown (`shutDown`) and exits 0 when it is
 * done. A second such signal exits at once, with 128 + its number (143, 130, 129), as does a
 * shutdown still unfinished at `SHUTDOWN_TIMEOUT_SECONDS` (exit 1). SIGHUP (the terminal the
 * server ran in has closed) would otherwise end the process at once, losing the requests in
 * flight and the log lines not yet written; the server reloads nothing on it. For processes
 * whose whole job is this server: `main.ts` and the mock.
 */
export function closeOnSignals(running: SignalTarget): void {
  const { logger, shutdown } = running;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: stopping at once');
      process.exit(128 + constants.signals[signal]);
    }
    stopping = true;
    logger.info(
      { signal, drainSeconds: shutdown.drainMs / 1000, timeoutSeconds: shutdown.timeoutMs / 1000 },
      'shutting down: draining (/readyz 503), then finishing in-flight requests',
    );
    setTimeout(() => {
      logger.error('shutdown did not finish within SHUTDOWN_TIMEOUT_SECONDS: exiting');
      process.exit(1);
    }, shutdown.timeoutMs);
    running.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
}
