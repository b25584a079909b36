import type { ApiKeyRecord, Quota, Subject } from '../domain.js';
import type { Revisions } from '../storage/index.js';

/**
 * Who is calling, as `identifyCaller` found it: the one place every later step (rate limiting,
 * the security check, the handlers, the logs) reads it from, typed on `res.locals.caller`.
 */
export type Caller = KeyCaller | AnonymousCaller;

/** A caller with an active API key: counted, and allowed, by that key. */
export interface KeyCaller {
  readonly kind: 'key';
  readonly key: ApiKeyRecord;
  readonly subject: Subject;
  readonly quota: Quota;
}

/**
 * A caller without a valid key, counted by client address at the anonymous quota.
 * `credential` says what was sent: nothing, or something that is not an active key.
 * `lookupError` holds a store failure met while checking the key: the request is counted
 * first (so the error response carries the rate-limit headers), then fails with it.
 */
export interface AnonymousCaller {
  readonly kind: 'anonymous';
  readonly credential: 'none' | 'invalid';
  readonly subject: Subject;
  readonly quota: Quota;
  readonly lookupError?: unknown;
}

declare global {
  // Express's `res.locals` is typed through this interface (@types/express-serve-static-core).
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** This request's id (`X-Request-Id`), set first by `requestId`. */
      requestId: string;
      /** Who is calling, set by `identifyCaller` before anything under `/v1` runs. */
      caller: Caller;
      /**
       * The store's revisions as this request read them, once, when `identifyCaller` checked
       * its key (absent without one): the routes serve what they read earlier only at these.
       */
      revisions?: Revisions;
    }
  }
}
