import type { ServerResponse } from 'node:http';

/**
 * Response headers gathered on the way through the middleware, as `[name, value, name, value,
 * …]`, and written with the status line in one `writeHead(status, list)`. An answer carries 13
 * or more headers (request id, the five security headers, five rate-limit headers, its own);
 * set one by one with `setHeader`, Node checks and lowercases each name and keeps them in a
 * per-response dictionary, then walks that dictionary again to write the head. Given as a flat
 * list to `writeHead` on a response with no header set otherwise, each header is checked once,
 * as the head is written. Measured on Node.js 24.21.0 (28 November 2026): the header work fell
 * from 11.4 % to 7.2 % of the main thread's profile of creates, on a scratch copy that gathered
 * only the request id, security and rate-limit headers (docs/benchmarks.md, *Changes that
 * mattered*, for the A/B figures of this code).
 *
 * An answer's own headers (its Content-Type, an error's `WWW-Authenticate`, `Allow` or
 * `Retry-After`) go with the head. A header set with `setHeader` (by Express's `res.json`,
 * `cors`, the public files, a graceful stop's `Connection: close`) wins over a gathered one of
 * the same name, as the later of two `setHeader` calls did: those responses take the ordinary
 * path, where the gathered headers are set first. A name is gathered at most once per response,
 * and never one the answer sets itself: on the one-call path nothing looks for repeats
 * (test/http/gathered-headers.test.ts checks each kind of answer for a header sent twice).
 */
const gathered = Symbol('gathered response headers');

type Gathering = ServerResponse & { [gathered]?: string[] | undefined };

/** Adds a header that `res` will carry; nothing is written yet. */
export function gatherHeader(res: ServerResponse, name: string, value: string): void {
  const list = (res as Gathering)[gathered];
  if (list === undefined) (res as Gathering)[gathered] = [name, value];
  else list.push(name, value);
}

/** {@link gatherHeader} for each `[name, value]` pair of a flat list. */
export function gatherHeaders(res: ServerResponse, flat: readonly string[]): void {
  const list = (res as Gathering)[gathered];
  if (list === undefined) (res as Gathering)[gathered] = flat.slice();
  else for (let i = 0; i < flat.length; i++) list.push(flat[i]!);
}

/** Takes the gathered headers off `res`, each one set with `setHeader` unless already set. */
function setGathered(res: Gathering): void {
  const list = res[gathered];
  if (list === undefined) return;
  res[gathered] = undefined;
  for (let i = 0; i < list.length; i += 2) {
    if (!res.hasHeader(list[i]!)) res.setHeader(list[i]!, list[i + 1]!);
  }
}

/**
 * Writes the head of `res` (at the end of the turn, from `endAtTurnEnd`): `status`, the gathered
 * headers, then `own` (`[name, value, …]`, the answer's own, such as its Content-Type), which win
 * over any header of the same name. The body follows with `res.end`.
 */
export function writeHead(res: ServerResponse, status: number, own: readonly string[]): void {
  const list = (res as Gathering)[gathered];
  if (res.getHeaderNames().length === 0) {
    (res as Gathering)[gathered] = undefined;
    let all: string[] = own as string[];
    if (list !== undefined) {
      for (let i = 0; i < own.length; i++) list.push(own[i]!);
      all = list;
    }
    res.writeHead(status, all);
    return;
  }
  for (let i = 0; i < own.length; i += 2) res.setHeader(own[i]!, own[i + 1]!);
  setGathered(res as Gathering);
  res.writeHead(status);
}

/**
 * Makes every response whose head is written some other way (Express's `res.json`, a public
 * file, a preflight answered by `cors`, Node's implicit head at `res.end`) carry the gathered
 * headers too: installed on the prototype Express gives each response of `app`. The `writeHead`
 * it then calls is looked up on the prototype's own prototypes at each call, not kept from when
 * the app was built, so a later wrapper of Node's `ServerResponse.prototype.writeHead` (an APM
 * agent's, say) still sees every head.
 */
export function writeGatheredHeadersOn(responsePrototype: object): void {
  Object.defineProperty(responsePrototype, 'writeHead', {
    configurable: true,
    writable: true,
    value: function writeHeadWithGathered(this: Gathering, ...args: unknown[]) {
      setGathered(this);
      // The prototype too is looked up now: Express re-parents an app's response when the
      // app is mounted in another.
      const inherited = Object.getPrototypeOf(responsePrototype) as Pick<
        ServerResponse,
        'writeHead'
      >;
      return (inherited.writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    },
  });
}
