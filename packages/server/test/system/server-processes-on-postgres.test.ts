import type { Pet } from '@petstore/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';
import {
  issueKeyIn,
  listening,
  type ServerProcess,
  spawnServer,
} from '../support/server-process.js';

const storeKey = (databaseUrl: string) => issueKeyIn(databaseUrl, { plan: 'pro' });

// `main.ts` itself, as deployed: DATABASE_URL=postgres://… chooses the PostgreSQL adapter.
describe('server processes on PostgreSQL', { timeout: 60_000 }, () => {
  let database: TemporaryPostgresDatabase;
  const servers: ServerProcess[] = [];

  beforeEach(async () => {
    database = await createTemporaryPostgresDatabase();
  });

  afterEach(async () => {
    for (const server of servers.splice(0)) server.child.kill('SIGKILL');
    await database.drop();
  });

  it('start together on one empty database, share its data, and exit 0 on SIGTERM', async () => {
    const env = { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: database.url };
    servers.push(spawnServer(env), spawnServer(env));
    // Both migrate the empty database at the same moment; the advisory lock orders them.
    const [one, two] = await Promise.all(servers.map(listening));
    const key = await storeKey(database.url);
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };

    const created = await fetch(`${one}/v1/pets`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Process pet', categoryId: 3 }),
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as Pet;
    const fetched = await fetch(`${two}/v1/pets/${pet.id}`, { headers });
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual({ id: pet.id, name: 'Process pet', categoryId: 3 });

    for (const server of servers) server.child.kill('SIGTERM');
    expect(await Promise.all(servers.map((server) => server.exited))).toEqual([0, 0]);
    for (const server of servers) {
      expect(server.logs.map((line) => line.msg)).toContain('stopped');
      expect(server.logs.find((line) => line.msg === 'listening')).toMatchObject({
        storage: 'postgres',
      });
    }
  });
});
