import { connect } from 'node:net';
import { Writable } from 'node:stream';
import type { Pet } from '@petstore/types';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger/index.js';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { createPet } from '../support/requests.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Sends `count` copies of `request` pipelined in one write on one connection, so the server
 * reads them in one turn of its event loop, and resolves to the answers in order.
 */
function pipelined(url: string, request: string, count: number): Promise<Answer[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request.repeat(count)));
    let received = Buffer.alloc(0);
    const answers: Answer[] = [];
    socket.on('error', reject);
    socket.on('close', () =>
      reject(new Error(`the server closed the connection after ${answers.length} answers`)),
    );
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine = '', ...lines] = received
          .subarray(0, end)
          .toString('latin1')
          .split('\r\n');
        const headers = new Map(
          lines.map((line) => {
            const colon = line.indexOf(':');
            return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
          }),
        );
        const status = Number(statusLine.split(' ')[1]);
        const contentLength = headers.get('content-length');
        if (contentLength === undefined && status !== 304) {
          reject(new Error(`an answer without Content-Length: ${statusLine}`));
          return;
        }
        const length = Number(contentLength ?? 0);
        if (received.length < end + 4 + length) return;
        const body = received.subarray(end + 4, end + 4 + length).toString('utf8');
        received = received.subarray(end + 4 + length);
        answers.push({ status, headers, body });
        if (answers.length === count) {
          socket.end();
          resolve(answers);
          return;
        }
      }
    });
  });
}

/**
 * On PostgreSQL, the requests of one turn that ask for the same page share one read
 * (storage/postgres/shared-reads.ts) and the page built from it: its servable pets, JSON and
 * ETag are made once. A planted row the contract refuses shows it, as each build logs it.
 */
describe('PostgreSQL: one page built for the requests that shared its read', () => {
  let database: TemporaryPostgresDatabase;
  let server: TestServer;
  let key: string;
  const lines: string[] = [];
  const good: Pet[] = [];

  beforeAll(async () => {
    database = await createTemporaryPostgresDatabase();
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    server = await startTestServer({
      databaseUrl: database.url,
      logger: createLogger('warn', { destination }),
    });
    key = await server.createKey('pro');
    for (const name of ['Rex', 'Tom'])
      good.push(await createPet(server, key, { name, categoryId: 1 }));
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query("insert into pets (name, category_id) values ('bell\u0007', 1)");
    await client.end();
  });
  afterAll(async () => {
    await server.close();
    await database.drop();
  });

  const refusals = () => lines.filter((line) => line.includes('is not served')).length;
  const request =
    'GET /v1/pets?limit=100 HTTP/1.1\r\nHost: petstore\r\nAuthorization: Bearer KEY\r\n\r\n';
  /**
   * `count` pipelined requests for the first page, after one alone that puts the API key in the
   * server's key cache: a key looked up in the store would let the others reach their read in
   * later turns.
   */
  const pages = async (count: number) => {
    const withKey = request.replace('KEY', key);
    await pipelined(server.url, withKey, 1);
    const before = refusals();
    const answers = await pipelined(server.url, withKey, count);
    return { answers, builds: refusals() - before };
  };

  it('builds the page once for twelve requests read in one turn, and answers each in full', async () => {
    const { answers, builds } = await pages(12);

    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    for (const answer of answers) {
      expect(JSON.parse(answer.body)).toEqual(good);
      expect(answer.headers.get('etag')).toBe(answers[0]?.headers.get('etag'));
    }
    expect(builds).toBe(1);
  });

  it('builds it again from a read of a later turn, which sees what was created since', async () => {
    const { answers: before } = await pages(1);
    const added = await createPet(server, key, { name: 'Zed', categoryId: 2 });
    const { answers: after, builds } = await pages(1);

    expect(JSON.parse(after[0]?.body ?? '')).toEqual([...good, added]);
    expect(after[0]?.headers.get('etag')).not.toBe(before[0]?.headers.get('etag'));
    expect(builds).toBe(1);
  });
});
