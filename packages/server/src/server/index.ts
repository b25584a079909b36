/** Starting and stopping a server: storage, limiter, app, warm-up, listening, graceful shutdown. */
export { type RunningServer, startServer, type StartServerOptions } from './start-server.js';
export { closeOnSignals } from './shutdown.js';
