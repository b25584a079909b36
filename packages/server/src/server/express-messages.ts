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
 * `Object.setPrototypeOf`. Changing a live object's prototype costs V8 a new hidden class for
 * it and, measured here, makes a quarter to a third of all a request allocates outlive the
 * young-generation collections, where without it nothing does: the old generation fills, and
 * full collections run every 0.6 s under load. Made with those prototypes from the start, the
 * objects need no change (Express's `setPrototypeOf` to the prototype they already have is a
 * no-op) and die young. The technique is the one proposed in expressjs/express#5998.
 * Measured on Node.js 20.20.2 (V8 11.3); not yet re-measured on Node.js 24 (V8 13.6), where
 * the constructors are still plain functions (docs/benchmarks.md, *Left to do*).
 *
 * Node's `IncomingMessage` and `ServerResponse` are plain constructor functions, called here on
 * the new object. Should a Node version make them classes (which cannot be called so), the
 * server falls back to Node's own, and Express changes the prototypes as before.
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
  if (isClass(IncomingMessage) || isClass(ServerResponse)) return {};
  const newRequest = IncomingMessage as unknown as (this: object, socket: Socket) => void;
  const newResponse = ServerResponse as unknown as (
    this: object,
    req: IncomingMessage,
    options?: object,
  ) => void;
  function AppRequest(this: object, socket: Socket): void {
    newRequest.call(this, socket);
  }
  function AppResponse(this: object, req: IncomingMessage, options?: object): void {
    newResponse.call(this, req, options);
  }
  AppRequest.prototype = app.request;
  AppResponse.prototype = app.response;
  return {
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  };
}

const isClass = (constructor: unknown): boolean =>
  Function.prototype.toString.call(constructor).startsWith('class');
