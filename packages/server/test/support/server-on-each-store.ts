import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { createTemporaryPostgresDatabase } from './temporary-postgres-database.js';

/** A started test server, and how to stop it and drop what was made for it. */
export interface StoreServer {
  server: TestServer;
  stop(): Promise<void>;
}

/**
 * A real test server on each store, for `describe.each(serverOnEachStore)('… on $name', …)`:
 * SQLite (a scratch file) and PostgreSQL (a scratch database, dropped by `stop`).
 */
export const serverOnEachStore: { name: string; start(): Promise<StoreServer> }[] = [
  {
    name: 'SQLite',
    async start() {
      const server = await startTestServer();
      return { server, stop: () => server.close() };
    },
  },
  {
    name: 'PostgreSQL',
    async start() {
      const database = await createTemporaryPostgresDatabase();
      const server = await startTestServer({ databaseUrl: database.url });
      return {
        server,
        async stop() {
          await server.close();
          await database.drop();
        },
      };
    },
  },
];
