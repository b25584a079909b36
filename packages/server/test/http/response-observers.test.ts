import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { observeResponses, type ResponseObserver } from '../../src/http/index.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers
      .splice(0)
      .map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
});

/** Serves `app` on loopback, as the server does (`http.createServer`); returns its base URL. */
async function serve(app: Express): Promise<string> {
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Seen {
  path: string;
  status: number;
  elapsedMs: number;
}

/** An observer that records what it is told. */
function recorder(): { seen: Seen[]; observe: ResponseObserver } {
  const seen: Seen[] = [];
  return {
    seen,
    observe: (req, res, elapsedMs) =>
      seen.push({ path: req.path, status: res.statusCode, elapsedMs }),
  };
}

/**
 * An app whose `/slow` answers 201 after 30 ms and `/fast` 200 at once; `listeners` gets how many
 * `finish` listeners each `/fast` response had when its handler ran.
 */
function appWith(observers: ResponseObserver[], listeners: number[] = []): Express {
  const app = express();
  if (observers.length > 0) app.use(observeResponses(...observers));
  app.get('/slow', (_req, res) => void setTimeout(() => res.status(201).send('slow'), 30));
  app.get('/fast', (_req, res) => {
    listeners.push(res.listenerCount('finish'));
    res.send('fast');
  });
  return app;
}

describe('observeResponses', () => {
  it('tells every observer about each response once, after it is sent, with its time', async () => {
    const [first, second] = [recorder(), recorder()];
    const base = await serve(appWith([first.observe, second.observe]));
    expect((await fetch(`${base}/slow`)).status).toBe(201);
    expect((await fetch(`${base}/fast`)).status).toBe(200);
    expect((await fetch(`${base}/missing`)).status).toBe(404);
    for (const { seen } of [first, second]) {
      expect(seen.map(({ path, status }) => [path, status])).toEqual([
        ['/slow', 201],
        ['/fast', 200],
        ['/missing', 404],
      ]);
      expect(seen[0]!.elapsedMs).toBeGreaterThanOrEqual(25);
      expect(seen[1]!.elapsedMs).toBeLessThan(seen[0]!.elapsedMs);
    }
  });

  it("tells an app's observers only about that app's responses", async () => {
    const [one, other] = [recorder(), recorder()];
    const [baseOne, baseOther, baseUnobserved] = await Promise.all([
      serve(appWith([one.observe])),
      serve(appWith([other.observe])),
      serve(appWith([])),
    ]);
    await fetch(`${baseOne}/fast`);
    await fetch(`${baseOther}/slow`);
    await fetch(`${baseUnobserved}/fast`);
    expect(one.seen.map(({ path }) => path)).toEqual(['/fast']);
    expect(other.seen.map(({ path }) => path)).toEqual(['/slow']);
  });

  // A second `finish` listener makes Node allocate an array from a literal that V8 may have
  // decided, at start-up, to allocate in the old generation: see response-observers.ts.
  it("adds no listener to a response's finish", async () => {
    const [withObservers, without] = [[] as number[], [] as number[]];
    const [observed, plain] = await Promise.all([
      serve(appWith([recorder().observe], withObservers)),
      serve(appWith([], without)),
    ]);
    await fetch(`${observed}/fast`);
    await fetch(`${plain}/fast`);
    expect(withObservers).toEqual(without);
    expect(without).toEqual([1]);
  });
});
