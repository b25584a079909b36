/**
 * The server's entry point and the only module of the server that reads `process.env`: the configuration,
 * then `startServer`, then graceful shutdown on SIGTERM/SIGINT/SIGHUP. Everything else is wiring-free.
 * Its first import refuses a Node.js the server does not support, before any other module runs.
 */
import './runtime/index.js';
import { ConfigError, loadConfig, resolveDatabaseUrl } from './config/index.js';
import { closeOnSignals, startServer } from './server/index.js';

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
// npm runs the server inside its workspace; relative paths mean the folder npm was run from.
const databaseUrl = resolveDatabaseUrl(config.databaseUrl, process.env.INIT_CWD ?? process.cwd());

try {
  closeOnSignals(await startServer({ config: { ...config, databaseUrl } }));
} catch (error) {
  process.stderr.write(
    `The server could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
