import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import { writeHead } from './response-headers.js';

/**
 * Answers that wait for the end of the current turn of the event loop, in the order they were
 * ended: [response, body, status, own headers, …], status 0 where the head is written some
 * other way.
 */
let waiting: (ServerResponse | string | number | readonly string[] | undefined)[] = [];

function endWaiting(): void {
  const answers = waiting;
  waiting = [];
  for (let i = 0; i < answers.length; i += 4) {
    const res = answers[i] as ServerResponse;
    // Ended twice within the turn (a bug elsewhere): the first answer stands.
    if (res.writableEnded) continue;
    try {
      const status = answers[i + 2] as number;
      if (status !== 0) writeHead(res, status, answers[i + 3] as readonly string[]);
      res.end(answers[i + 1] as string | undefined);
    } catch (error) {
      // One answer that cannot be written must not keep the others of the turn unsent.
      res.destroy(error as Error);
    }
  }
}

/**
 * Ends `res` (with `body`, if any) at the end of the current turn of the event loop (its check
 * phase), together with every other answer ended in the turn. Flush consolidation, as servers
 * such as Netty do it: under load one turn reads many requests, and answering each at once
 * interleaves the writes with the reading, so the client and the kernel's network path are woken
 * once per answer; written in a row, after every request of the turn was handled, the same
 * answers cost about a fifth less CPU in the benchmark (docs/benchmarks.md,
 * *Changes that mattered*). At low load a turn holds one request, and its answer leaves at the
 * end of that same turn. An answer ended in a later turn (a create, after its commit) leaves
 * at the end of that one.
 *
 * With `status`, the head (`status`, the gathered headers, then `headers`) is written then too
 * (response-headers.ts), not now: until the turn ends, a header may still be set, such as the
 * `Connection: close` of a graceful stop that begins in this turn.
 */
export function endAtTurnEnd(
  res: ServerResponse,
  body?: string,
  status = 0,
  headers: readonly string[] = noHeaders,
): void {
  if (waiting.push(res, body, status, headers) === 4) setImmediate(endWaiting);
}

const noHeaders: readonly string[] = [];

export interface SendJsonOptions {
  /** The body already serialised (a cached page's text), else it is serialised here. */
  text?: string | undefined;
  /**
   * Through Express's `res.json` instead, where express-openapi-validator checks the body
   * against the contract when response validation is on.
   */
  viaExpress?: boolean | undefined;
  /**
   * The answer's own headers beside its Content-Type, such as an error's `WWW-Authenticate`,
   * `Allow` or `Retry-After`: written with the head, over any header of the same name. Never a
   * name the middleware gathers (response-headers.ts): on the one-call path nothing looks for
   * repeats.
   */
  headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * Sends a JSON answer: written with Node's `res.end` at the end of the turn (`endAtTurnEnd`),
 * serialised once (Express's `res.send` would re-derive the content type, check freshness
 * again and re-encode). Content-Length is set here, as Node leaves it out of a HEAD answer,
 * which must carry GET's headers.
 *
 * @example
 * ```ts
 * sendJson(res, 201, pet);
 * ```
 */
export function sendJson<T>(
  res: Response<T>,
  status: number,
  body: NoInfer<T>,
  { text, viaExpress = false, headers }: SendJsonOptions = {},
): void {
  if (viaExpress) {
    if (headers !== undefined) res.set(headers);
    res.status(status).json(body);
    return;
  }
  const json = text ?? JSON.stringify(body);
  const own = [
    ...['Content-Type', 'application/json; charset=utf-8'],
    ...['Content-Length', String(Buffer.byteLength(json))],
  ];
  if (headers !== undefined) for (const name in headers) own.push(name, headers[name]!);
  endAtTurnEnd(res, json, status, own);
}
