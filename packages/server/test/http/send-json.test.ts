import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { endAtTurnEnd } from '../../src/http/index.js';

let server: Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

/** A server on loopback whose requests `handle` answers. */
async function serve(handle: (res: ServerResponse, path: string) => void): Promise<string> {
  server = createServer((req, res) => handle(res, req.url ?? '/'));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('endAtTurnEnd', () => {
  it('ends the response at the end of the turn, not at once', async () => {
    const seen: boolean[] = [];
    const base = await serve((res) => {
      endAtTurnEnd(res, 'done');
      seen.push(res.writableEnded);
      queueMicrotask(() => seen.push(res.writableEnded));
      setImmediate(() => setImmediate(() => seen.push(res.writableEnded)));
    });
    expect(await (await fetch(base)).text()).toBe('done');
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    // Not within the handler nor its microtasks; by the turn after, it has been written.
    expect(seen).toEqual([false, false, true]);
  });

  it('writes every answer ended in the turn, even when one of them fails', async () => {
    const ended: string[] = [];
    const held: [ServerResponse, string][] = [];
    const base = await serve((res, path) => {
      if (path === '/broken') {
        // An end that throws (a bug elsewhere) must not keep the others of the turn unsent.
        res.end = () => {
          throw new Error('broken');
        };
      }
      res.on('finish', () => ended.push(path));
      // All four are ended in one turn, the turn in which the last one arrives.
      if (held.push([res, path]) === 4) for (const [each, body] of held) endAtTurnEnd(each, body);
    });
    const answers = await Promise.allSettled(
      ['/a', '/broken', '/b', '/c'].map((path) => fetch(base + path).then((r) => r.text())),
    );
    expect(answers.map((answer) => answer.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(answers.filter((a) => a.status === 'fulfilled').map((a) => a.value)).toEqual([
      '/a',
      '/b',
      '/c',
    ]);
    expect([...ended].sort()).toEqual(['/a', '/b', '/c']);
  });

  it('keeps the first answer when a response is ended twice in one turn', async () => {
    const base = await serve((res) => {
      endAtTurnEnd(res, 'first');
      endAtTurnEnd(res, 'second');
    });
    expect(await (await fetch(base)).text()).toBe('first');
  });
});
