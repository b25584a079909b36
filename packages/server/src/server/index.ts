/** Starting and stopping a server: storage, limiter, app, warm-up, listening, graceful shutdown. */
export {
  closeOnSignals,
  type RunningServer,
  SHUTDOWN_GRACE_MS,
  startServer,
  type StartServerOptions,
} from './start-server.js';
