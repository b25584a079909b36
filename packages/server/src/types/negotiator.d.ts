// The part of negotiator 1.x (CommonJS, untyped) the server uses: @types/negotiator describes
// 0.6, whose encodings() takes no order of preference.
declare module 'negotiator' {
  import type { IncomingMessage } from 'node:http';

  class Negotiator {
    constructor(request: Pick<IncomingMessage, 'headers'>);
    /**
     * The acceptable codings among `available`, best first: by the client's q-values, ties
     * broken by `preferred`'s order (then the client's).
     */
    encodings(available?: string[], options?: { preferred?: string[] }): string[];
  }
  export default Negotiator;
}
