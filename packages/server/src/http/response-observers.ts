import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler, Response } from 'express';

/** Told about each response once it is sent, with the milliseconds since the request arrived. */
export type ResponseObserver = (req: Request, res: Response, elapsedMs: number) => void;

/** When the request reached `observeResponses`, and whom to tell: kept on the response itself. */
const startedAt = Symbol('observeResponses.startedAt');
const observersOf = Symbol('observeResponses.observers');

interface ObservedResponse extends ServerResponse {
  [startedAt]?: number;
  [observersOf]?: readonly ResponseObserver[];
}

/**
 * Node publishes every finished response of every HTTP server of the process on this channel,
 * at the moment it emits the response's `finish`; one subscriber serves every app, and tells only
 * the observers a response was marked with by its own app.
 */
function onResponseFinish(message: unknown): void {
  const { request, response } = message as { request: IncomingMessage; response: ObservedResponse };
  const observers = response[observersOf];
  if (observers === undefined) return;
  const elapsedMs = performance.now() - (response[startedAt] ?? 0);
  for (const observe of observers) observe(request as Request, response as Response, elapsedMs);
}

let subscribed = false;

/**
 * Runs every observer (the request log, the HTTP metrics) once the response is sent, with one
 * clock reading per request, from Node's `http.server.response.finish` diagnostics channel
 * rather than a `finish` listener per response.
 *
 * Why not a listener: Node itself listens to each response's `finish`, so a second listener
 * makes Node's events.js allocate a two-element array from an array literal (`[existing,
 * listener]`) that long-lived emitters also use at start-up. V8 decides per allocation site,
 * from how many of its objects survive young collections, to allocate them straight in the old
 * generation (allocation-site pretenuring), and in 26 of the 31 processes measured that site was
 * so decided, it seems at start-up (V8's trace showed sites tenured before any load). Each
 * response's array then lived in the old generation, pointing at the request's young objects,
 * which every young collection therefore kept and promoted: a full collection every 1–2 s,
 * more CPU per request and a p99 near 40 ms instead of 10, for the process's whole life. With
 * the listener prepended (the other literal) or V8's pretenuring off, no process fell into that
 * state (Node.js 24.21.0, V8 13.6: docs/benchmark-stability.md). The channel adds no
 * listener and no closure per response.
 */
export function observeResponses(...observers: ResponseObserver[]): RequestHandler {
  if (!subscribed) {
    subscribe('http.server.response.finish', onResponseFinish);
    subscribed = true;
  }
  return (_req, res, next) => {
    const response = res as ObservedResponse;
    response[startedAt] = performance.now();
    response[observersOf] = observers;
    next();
  };
}
