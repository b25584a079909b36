import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, type ClientRequest, type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Pet } from '@petstore/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../../../src/storage/index.js';
import { validator } from '../../support/contract.js';
import {
  issueKeyIn,
  listening,
  logged,
  type ServerProcess,
  spawnServer,
} from '../../support/server-process.js';

type Operation = 'createPet' | 'listPets';

/** What became of one request: an answer (whole or cut short), or none at all. */
type Outcome = { operation: Operation; name: string } & (
  | {
      kind: 'answer';
      status: number;
      headers: IncomingHttpHeaders;
      /** Whether the whole body arrived (as long as its Content-Length said). */
      complete: boolean;
      text: string;
    }
  | {
      kind: 'no answer';
      code: string;
      /** Whether the request went out on a kept-alive connection that had answered before. */
      reused: boolean;
    }
);

const validPet = validator('/components/schemas/Pet');
const validPage = validator('/paths/~1pets/get/responses/200/content/application~1json/schema');

let dir: string;
let databaseFile: string;
let server: ServerProcess;
let url: URL;
let key: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'petstore-sigterm-'));
  databaseFile = path.join(dir, 'petstore.db');
  key = await issueKeyIn(`file:${databaseFile}`);
});
/** Starts the server with a drain of `drainSeconds` (and 4 s more to exit). */
async function startServer(drainSeconds: number) {
  server = spawnServer({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `file:${databaseFile}`,
    SHUTDOWN_DRAIN_SECONDS: String(drainSeconds),
    SHUTDOWN_TIMEOUT_SECONDS: String(drainSeconds + 4),
  });
  url = new URL(await listening(server));
}

afterEach(async () => {
  server.child.kill('SIGKILL');
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `POST /v1/pets` or `GET /v1/pets` over `agent`; the caller ends the request. */
function start(agent: Agent, operation: Operation, extra: Record<string, string> = {}) {
  return request({
    agent,
    host: url.hostname,
    port: url.port,
    method: operation === 'createPet' ? 'POST' : 'GET',
    path: operation === 'createPet' ? '/v1/pets' : '/v1/pets?limit=5',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...extra },
  });
}

/** Resolves with what became of `req` (never rejects). */
function outcome(req: ClientRequest, operation: Operation, name: string): Promise<Outcome> {
  return new Promise((resolve) => {
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('error', () => {});
      res.once('close', () =>
        resolve({
          operation,
          name,
          kind: 'answer',
          status: res.statusCode ?? 0,
          headers: res.headers,
          complete: res.complete,
          text,
        }),
      );
    });
    req.once('error', (error: NodeJS.ErrnoException) =>
      resolve({
        operation,
        name,
        kind: 'no answer',
        code: error.code ?? error.message,
        reused: req.reusedSocket,
      }),
    );
  });
}

function send(agent: Agent, operation: Operation, name: string): Promise<Outcome> {
  const req = start(agent, operation);
  const result = outcome(req, operation, name);
  req.end(operation === 'createPet' ? JSON.stringify({ name, categoryId: 1 }) : undefined);
  return result;
}

/** The pets in the database file, once the server has exited. */
async function storedPets(): Promise<Pet[]> {
  const storage = openSqliteStorage(databaseFile);
  try {
    return await storage.pets.list({ limit: 10_000 });
  } finally {
    await storage.close();
  }
}

describe('SIGTERM under load', { timeout: 60_000 }, () => {
  const WORKERS = 12;
  /** A bound: each worker stops once refused, which the end of the 1 s drain brings sooner. */
  const REQUESTS_PER_WORKER = 5_000;
  /** SIGTERM goes out once this many answers have come back: the stream is steady by then. */
  const SIGTERM_AFTER = 120;

  it('answers every request it took in full, stores every 201, refuses the rest by refusing the connection, and exits 0', async () => {
    await startServer(1);
    // Keep-alive connections, as load balancers and HTTP clients use them.
    const agent = new Agent({ keepAlive: true, maxSockets: WORKERS });
    let answers = 0;
    const worker = async (w: number) => {
      const outcomes: Outcome[] = [];
      for (let i = 0; i < REQUESTS_PER_WORKER; i++) {
        const result = await send(agent, i % 3 === 2 ? 'listPets' : 'createPet', `Load ${w}-${i}`);
        outcomes.push(result);
        if (result.kind === 'answer' && ++answers === SIGTERM_AFTER) server.child.kill('SIGTERM');
        // The server is gone for this caller: a real client stops or goes elsewhere.
        if (result.kind === 'no answer') break;
      }
      return outcomes;
    };
    const outcomes = (
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)))
    ).flat();
    agent.destroy();

    expect(answers).toBeGreaterThanOrEqual(SIGTERM_AFTER);
    expect(await server.exited).toBe(0);
    const answered = outcomes.filter((o) => o.kind === 'answer');
    for (const answer of answered) {
      const what = `${answer.operation} ${answer.name}`;
      expect(answer.complete, `${what}: the whole body`).toBe(true);
      expect(answer.status, `${what}: ${answer.text}`).toBe(
        answer.operation === 'createPet' ? 201 : 200,
      );
      const valid = answer.operation === 'createPet' ? validPet : validPage;
      expect(valid(JSON.parse(answer.text)), `${what}: ${JSON.stringify(valid.errors)}`).toBe(true);
    }
    // Refused only once the drain is over, and only on a new connection: refused, or reset by
    // the kernel when the listener closed with it still in the accept queue (never read). No
    // kept-alive connection was closed under a request.
    const refused = outcomes.filter((o) => o.kind === 'no answer');
    expect(refused.length).toBeGreaterThan(0);
    for (const refusal of refused) {
      expect(refusal, refusal.name).toMatchObject({ reused: false });
      expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE'], refusal.name).toContain(refusal.code);
    }
    // Every 201 is stored, and nothing else: no request without an answer was carried out.
    const created = answered
      .filter((answer) => answer.operation === 'createPet')
      .map((answer) => JSON.parse(answer.text) as Pet);
    expect(await storedPets()).toEqual(created.sort((a, b) => a.id - b.id));
  });

  it('answers a request in flight with Connection: close, serves the caller’s next one on a new connection during the drain, and refuses the connection after it', async () => {
    // Long enough for the next request to come while it lasts, on a busy machine too.
    await startServer(5);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // Expect: 100-continue makes the server confirm it holds the request before the body is sent.
    const inFlight = start(agent, 'createPet', { Expect: '100-continue' });
    const answer = outcome(inFlight, 'createPet', 'In flight');
    inFlight.flushHeaders();
    await once(inFlight, 'continue');
    server.child.kill('SIGTERM');
    await logged(server, 'shutting down');
    inFlight.end(JSON.stringify({ name: 'In flight', categoryId: 1 }));

    const answered = await answer;
    expect(answered).toMatchObject({ kind: 'answer', status: 201, complete: true });
    expect(answered.kind === 'answer' && answered.headers.connection).toBe('close');
    const next = await send(agent, 'listPets', 'Next');
    expect(next).toMatchObject({ kind: 'answer', status: 200, complete: true });
    expect(next.kind === 'answer' && next.headers.connection).toBe('close');
    await logged(server, 'drained');
    expect(await send(agent, 'listPets', 'After the drain')).toMatchObject({
      kind: 'no answer',
      code: 'ECONNREFUSED',
    });
    agent.destroy();
    expect(await server.exited).toBe(0);
    expect(await storedPets()).toEqual([JSON.parse((answered as { text: string }).text) as Pet]);
  });
});
