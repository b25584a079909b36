import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { chain, exceptUnderApi, onlyUnderApi } from '../../src/http/index.js';

/** Runs a handler with stand-in request and response; resolves with what reached `next`. */
function run(handler: RequestHandler): Promise<unknown[]> {
  return new Promise((resolve) => {
    const next: NextFunction = (...args: unknown[]) => resolve(args);
    handler({} as Request, {} as Response, next);
  });
}

describe('chain', () => {
  it('runs each handler in order, then goes on', async () => {
    const seen: string[] = [];
    const step =
      (name: string): RequestHandler =>
      (_req, _res, next) => {
        seen.push(name);
        next();
      };
    expect(await run(chain(step('a'), step('b'), step('c')))).toEqual([]);
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it.each([
    [
      'passes an error to next',
      (_req: Request, _res: Response, next: NextFunction) => next(new Error('x')),
    ],
    [
      'throws',
      () => {
        throw new Error('x');
      },
    ],
    [
      'rejects',
      async () => {
        throw new Error('x');
      },
    ],
  ])('stops at the error handler when a handler %s', async (_case, failing) => {
    let reached = false;
    const [error] = await run(
      chain(failing as RequestHandler, () => {
        reached = true;
      }),
    );
    expect(error).toEqual(new Error('x'));
    expect(reached).toBe(false);
  });

  it('waits for a handler that goes on later', async () => {
    const later: RequestHandler = (_req, _res, next) => void setImmediate(() => next());
    const seen: string[] = [];
    await run(chain(later, (_req, _res, next) => (seen.push('after'), next())));
    expect(seen).toEqual(['after']);
  });
});

describe('onlyUnderApi and exceptUnderApi', () => {
  it('tell API paths (under /v1, in any letter case) from the rest, one the mirror of the other', () => {
    const paths = ['/healthz', '/v1', '/V1/pets', '/v1/pets', '/v1/pets/1', '/v10', '/v1pets', '/'];
    const reached = (wrap: (handler: RequestHandler) => RequestHandler) => {
      const seen: string[] = [];
      const handler = wrap((req, _res, next) => {
        seen.push(req.path);
        next();
      });
      for (const path of paths) {
        let wentOn = false;
        handler({ path } as Request, {} as Response, () => {
          wentOn = true;
        });
        expect(wentOn).toBe(true);
      }
      return seen;
    };
    expect(reached(onlyUnderApi)).toEqual(['/v1', '/V1/pets', '/v1/pets', '/v1/pets/1']);
    expect(reached(exceptUnderApi)).toEqual(['/healthz', '/v10', '/v1pets', '/']);
  });
});
