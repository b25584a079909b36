import { describe, expect, it } from 'vitest';
import type { TraceContext } from '../../src/index.js';
import { clientOf, realServer } from './support.js';

const FIRST = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const SECOND = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** A `fetch` that records the trace headers of every attempt, then sends it for real. */
function recordingFetch(options: { failFirst?: boolean } = {}) {
  const sent: { traceparent: string | null; tracestate: string | null }[] = [];
  const fetch = (request: Request): Promise<Response> => {
    sent.push({
      traceparent: request.headers.get('traceparent'),
      tracestate: request.headers.get('tracestate'),
    });
    // The first attempt lost on the network: the client retries the GET.
    if (options.failFirst && sent.length === 1)
      return Promise.reject(new TypeError('fetch failed'));
    return globalThis.fetch(request);
  };
  return { fetch, sent };
}

describe('the traceContext option', () => {
  it('sends the caller’s current trace context with each request', async () => {
    const server = await realServer();
    const { fetch, sent } = recordingFetch();
    let current: TraceContext | undefined = { traceparent: FIRST, tracestate: 'caller=1' };
    const { client } = clientOf(server, await server.createKey('free'), {
      fetch,
      traceContext: () => current,
    });

    expect((await client.listPets()).response.status).toBe(200);
    current = { traceparent: SECOND };
    expect((await client.listPets()).response.status).toBe(200);
    current = undefined;
    expect((await client.listPets()).response.status).toBe(200);

    expect(sent).toEqual([
      { traceparent: FIRST, tracestate: 'caller=1' },
      { traceparent: SECOND, tracestate: null },
      { traceparent: null, tracestate: null },
    ]);
  });

  it('re-sends the same trace context with every retry of a call', async () => {
    const server = await realServer();
    const { fetch, sent } = recordingFetch({ failFirst: true });
    const { client } = clientOf(server, await server.createKey('free'), {
      fetch,
      traceContext: () => ({ traceparent: FIRST }),
    });
    expect((await client.listPets()).response.status).toBe(200);
    expect(sent.map((attempt) => attempt.traceparent)).toEqual([FIRST, FIRST]);
  });

  it.each([
    ['an unknown version', '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['upper-case hex', FIRST.toUpperCase()],
    ['a line break', `${FIRST}\r\nX-Injected: 1`],
  ])('sends no trace headers for a traceparent with %s', async (_, traceparent) => {
    const server = await realServer();
    const { fetch, sent } = recordingFetch();
    const { client } = clientOf(server, await server.createKey('free'), {
      fetch,
      traceContext: () => ({ traceparent, tracestate: 'caller=1' }),
    });
    expect((await client.listPets()).response.status).toBe(200);
    expect(sent).toEqual([{ traceparent: null, tracestate: null }]);
  });
});
