import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validator } from '../support/contract.js';
import { freePort, type Haproxy, startHaproxy } from '../support/haproxy.js';
import {
  issueKeyIn,
  listening,
  logged,
  type ServerProcess,
  spawnServer,
} from '../support/server-process.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';

/**
 * A deploy as an operator runs one: two server processes on one PostgreSQL database behind a
 * real HAProxy that health-checks `/readyz` and retries nothing, plain `fetch` callers (no
 * retries) sending creates and lists without a pause, and a rolling restart: SIGTERM one
 * instance, start its replacement, wait until HAProxy sends it traffic, then the other. Not
 * one request may fail. The times are the production ones scaled down: checks every 100 ms
 * (down after 2 failures), a 1 s drain, 5 s to exit.
 */
const CHECK = { intervalMs: 100, fall: 2, rise: 2 };
const SHUTDOWN = { SHUTDOWN_DRAIN_SECONDS: '2', SHUTDOWN_TIMEOUT_SECONDS: '6' };
/** Each instance is restarted this many times. */
const ROUNDS = 2;
const CALLERS = 8;
/** Bounds on the load: requests per caller, and time. */
const MAX_REQUESTS_PER_CALLER = 20_000;
const MAX_LOAD_MS = 240_000;
/** Between two restarts, the load runs for this many more answers. */
const ANSWERS_BETWEEN_RESTARTS = 300;

const validPet = validator('/components/schemas/Pet');
const validPage = validator('/paths/~1pets/get/responses/200/content/application~1json/schema');

interface Failure {
  request: string;
  what: string;
  /** When, in ms since the load started. */
  at: number;
}

/** A slot: a port HAProxy knows as a server; an instance runs on one of its instance's two. */
interface Slot {
  name: string;
  port: number;
}

// About 45 s on an idle 2-core machine; the bounds leave room for a busy one.
describe('a rolling restart behind HAProxy', { timeout: 300_000 }, () => {
  let database: TemporaryPostgresDatabase;
  let haproxy: Haproxy | undefined;
  const processes: ServerProcess[] = [];

  beforeEach(async () => {
    database = await createTemporaryPostgresDatabase();
  });
  afterEach(async () => {
    await haproxy?.stop();
    for (const server of processes.splice(0)) server.child.kill('SIGKILL');
    await database.drop();
  });

  function startInstance(slot: Slot): ServerProcess {
    const server = spawnServer({
      HOST: '127.0.0.1',
      PORT: String(slot.port),
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '4',
      // Longer than HAProxy keeps a connection idle: HAProxy, not the server, closes idle ones.
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000',
      ...SHUTDOWN,
    });
    processes.push(server);
    return server;
  }

  it('answers every request, with no retry anywhere', async () => {
    const key = await issueKeyIn(database.url);
    // Two slots per instance: a replacement starts on the free one while the old one drains.
    const slots: Slot[][] = [];
    for (const instance of ['a', 'b']) {
      slots.push([
        { name: `${instance}1`, port: await freePort() },
        { name: `${instance}2`, port: await freePort() },
      ]);
    }
    const running = await Promise.all(
      slots.map(async ([slot]) => {
        const server = startInstance(slot!);
        await listening(server);
        return { server, slot: 0 };
      }),
    );
    haproxy = await startHaproxy({ servers: slots.flat(), check: CHECK });
    const balancer = haproxy;
    for (const [up, spare] of slots) {
      await balancer.waitFor(up!.name, 'UP');
      await balancer.waitFor(spare!.name, 'DOWN');
    }

    // The load: plain fetch, no retries, bounded in count and time.
    let stop = false;
    let answers = 0;
    let creates = 0;
    const failures: Failure[] = [];
    const startedAt = Date.now();
    const deadline = startedAt + MAX_LOAD_MS;
    /** What the test did when, in ms since the load started: to read failures against. */
    const timeline: string[] = [];
    const note = (event: string) => timeline.push(`${Date.now() - startedAt} ms: ${event}`);
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const caller = async (c: number) => {
      for (let i = 0; i < MAX_REQUESTS_PER_CALLER && !stop && Date.now() < deadline; i++) {
        const create = i % 2 === 0;
        const request = create ? `createPet ${c}-${i}` : `listPets ${c}-${i}`;
        try {
          const response = await fetch(
            `${balancer.url}/v1/pets${create ? '' : '?limit=5'}`,
            create
              ? {
                  method: 'POST',
                  headers,
                  body: JSON.stringify({ name: `Load ${c}-${i}`, categoryId: c }),
                }
              : { headers },
          );
          const text = await response.text();
          const valid = create ? validPet : validPage;
          if (response.status !== (create ? 201 : 200) || !valid(JSON.parse(text))) {
            failures.push({
              request,
              what: `${response.status} ${text}`,
              at: Date.now() - startedAt,
            });
          } else {
            answers++;
            if (create) creates++;
          }
        } catch (error) {
          const cause = (error as { cause?: { code?: string; message?: string } }).cause;
          failures.push({
            request,
            what: `${String(error)} ${cause?.code ?? cause?.message}`,
            at: Date.now() - startedAt,
          });
        }
      }
    };
    const load = Promise.all(Array.from({ length: CALLERS }, (_, c) => caller(c)));
    const answersReach = (count: number) =>
      expect.poll(() => answers, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(count);

    const stopped: { server: ServerProcess; exit: Promise<number | string> }[] = [];
    let restarts = 0;
    try {
      await answersReach(ANSWERS_BETWEEN_RESTARTS);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, instance] of running.entries()) {
          const old = slots[i]![instance.slot]!;
          const next = slots[i]![1 - instance.slot]!;
          note(`SIGTERM to ${old.name} (${instance.server.child.pid})`);
          instance.server.child.kill('SIGTERM');
          stopped.push({ server: instance.server, exit: instance.server.exited });
          await logged(instance.server, 'shutting down');
          const replacement = startInstance(next);
          await listening(replacement);
          note(`${next.name} listening`);
          await balancer.waitFor(next.name, 'UP');
          note(`${next.name} UP`);
          await balancer.waitFor(old.name, 'DOWN');
          expect(await instance.server.exited).toBe(0);
          note(`${old.name} exited`);
          running[i] = { server: replacement, slot: 1 - instance.slot };
          restarts++;
          await answersReach(answers + ANSWERS_BETWEEN_RESTARTS);
        }
      }
    } catch (error) {
      throw new Error(`${String(error)}\nafter:\n${timeline.join('\n')}`, { cause: error });
    } finally {
      stop = true;
      await load;
    }

    const sent = answers + failures.length;
    // What the draining instances still answered after their SIGTERM.
    const answeredWhileDraining = stopped.map(({ server }) => {
      const from = server.logs.findIndex((line) => String(line.msg).startsWith('shutting down'));
      return server.logs.slice(from).filter((line) => line.msg === 'request completed').length;
    });
    console.info(
      `rolling restart behind HAProxy: ${sent} requests sent (${creates} creates), ` +
        `${failures.length} failed, ${restarts} restarts; answered by draining instances ` +
        `after SIGTERM: ${answeredWhileDraining.join(', ')}`,
    );
    const shutdowns = stopped.flatMap(({ server }) =>
      server.logs
        .filter((line) => /^(shutting down|drained|stopped)/.test(String(line.msg)))
        .map(
          (line) => `${Number(line.time) - startedAt} ms: ${server.child.pid} ${String(line.msg)}`,
        ),
    );
    expect(
      failures,
      `${[...timeline, ...shutdowns].sort((a, b) => parseInt(a) - parseInt(b)).join('\n')}\n` +
        `HAProxy:\n${balancer.log()}`,
    ).toEqual([]);
    expect(restarts).toBe(ROUNDS * 2);
    for (const { server } of stopped) {
      expect(server.logs.map((line) => line.msg)).toEqual(
        expect.arrayContaining([
          'drained: no longer accepting connections, finishing requests in flight',
          'stopped',
        ]),
      );
    }
    // Every create answered 201 was stored once, and nothing else.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ count: string }>('select count(*) from pets');
      expect(Number(rows[0]?.count)).toBe(creates);
    } finally {
      await client.end();
    }
  });
});
