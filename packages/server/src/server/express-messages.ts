import { IncomingMessage, type ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/** The `IncomingMessage` and `ServerResponse` options of `http.createServer`. */
export type MessageClasses = Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>;

/**
 * Node's own request and response classes, but whose instances are born with `app`'s request
 * and response prototypes (`app.request`, `app.response`: Express's methods over Node's).
 *
 * Express gives each request and response those prototypes as it receives them, with
 * `Object.setPrototypeOf` (the technique here is the one proposed in expressjs/express#5998).
 * Changing a live object's prototype makes V8 find it a new hidden class, replaying each of its
 * properties (`MapUpdater::ApplyPrototypeTransition` in a callgrind profile of creates). Made
 * with those prototypes from the start, the objects need no change: Express's `setPrototypeOf`
 * to the prototype they already have is a no-op.
 *
 * Each instance is built by Node's own constructor, with `Reflect.construct` and the class
 * below as `new.target`: V8 gives it the layout of Node's instances (the same in-object
 * properties) with the app's prototype. This code's first version called Node's constructors as
 * plain functions on an object `new` had made for the class itself; V8 then kept the properties
 * of every request and response in a dictionary, which on Node.js 24 cost more than the saving
 * (it was removed in 847ed01 for that). A test checks that both are fast objects, as Node's own
 * are (test/server/http-server.test.ts).
 *
 * Measured on Node.js 24.21.0 (29 November 2026), in user-space instructions per request under
 * callgrind, two fresh processes each (docs/benchmarks.md, *Changes that mattered*): list 20
 * 214 → 186 thousand, creates 353 → 323 thousand (the main thread 273 → 244).
 */
export function expressMessageClasses(app: Pick<Express, 'request' | 'response'>): MessageClasses {
  // One pair per app: the warm-up's listener and the public server then make objects of the
  // same shapes, so the code the warm-up optimised is the code that serves.
  let classes = madeFor.get(app);
  if (classes === undefined) {
    classes = messageClasses(app);
    madeFor.set(app, classes);
  }
  return classes;
}

const madeFor = new WeakMap<object, MessageClasses>();

function messageClasses(app: Pick<Express, 'request' | 'response'>): MessageClasses {
  function AppRequest(socket: Socket): IncomingMessage {
    return Reflect.construct(IncomingMessage, [socket], AppRequest) as IncomingMessage;
  }
  function AppResponse(req: IncomingMessage, options?: object): ServerResponse {
    return Reflect.construct(ServerResponse, [req, options], AppResponse) as ServerResponse;
  }
  AppRequest.prototype = app.request;
  AppResponse.prototype = app.response;
  return {
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  };
}
