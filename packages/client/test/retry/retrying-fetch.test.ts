import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  NetworkError,
  RetryBudgetExceededError,
  TimeoutError,
} from '../../src/errors.js';
import { resolveRetryOptions, type RetryOptions } from '../../src/retry/options.js';
import { createRetryingFetch } from '../../src/retry/retrying-fetch.js';
import { RateLimitTracker } from '../../src/retry/throttle.js';
import type { Sleep } from '../../src/time.js';
import { fakeTime } from '../support/fake-time.js';

// Pure units: the retry arithmetic against a scripted fetch. Behaviour against the real
// server is in test/real-server/.

const URL_ = 'https://api.example/v1/pets';

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

const rateLimited = (retryAfter: string, code = 'rate_limited') =>
  json(429, { code, message: 'Slow down.', status: 429 }, { 'Retry-After': retryAfter });

/** A fetch that answers from a script and records what it was sent. */
function scripted(...answers: Array<Response | Error>) {
  const sent: Array<{ method: string; body: string }> = [];
  const fetch = async (request: Request) => {
    sent.push({ method: request.method, body: await request.text() });
    const next = answers.shift();
    if (next === undefined) throw new Error('script exhausted');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, sent };
}

function setup(
  fetch: (r: Request) => Promise<Response>,
  options: {
    retry?: RetryOptions | false;
    timeoutMs?: number;
    throttle?: boolean;
    sleep?: Sleep;
  } = {},
) {
  const time = fakeTime();
  const tracker = new RateLimitTracker();
  const retryingFetch = createRetryingFetch({
    fetch,
    retry: options.retry === false ? undefined : resolveRetryOptions(options.retry ?? {}),
    timeoutMs: options.timeoutMs,
    throttle: options.throttle ? tracker : undefined,
    tracker,
    clock: time.clock,
    sleep: options.sleep ?? time.sleep,
    random: () => 0.5,
  });
  return { time, tracker, retryingFetch };
}

const get = (signal?: AbortSignal) => new Request(URL_, signal ? { signal } : {});
const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request(URL_, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  });
const KEYED = { 'Idempotency-Key': '"8e03978e-40d5-43e8-bc93-6894a57f9324"' };

describe('createRetryingFetch', () => {
  it('waits the delta-seconds of Retry-After on 429, then returns the success', async () => {
    const { fetch, sent } = scripted(rateLimited('2'), json(200, []));
    const { time, retryingFetch } = setup(fetch);
    const response = await retryingFetch(get());
    expect(response.status).toBe(200);
    expect(time.sleeps).toEqual([2000]);
    expect(sent).toHaveLength(2);
  });

  it('waits until the HTTP-date of Retry-After', async () => {
    const { fetch } = scripted(rateLimited('Tue, 01 Jan 2030 00:00:07 GMT'), json(200, []));
    const { time, retryingFetch } = setup(fetch);
    await retryingFetch(get());
    expect(time.sleeps).toEqual([7000]);
  });

  it('re-sends a POST answered 429 with the same body (the server did not carry it out)', async () => {
    const { fetch, sent } = scripted(
      rateLimited('1'),
      json(201, { id: 1, name: 'Rex', categoryId: 1 }),
    );
    const { retryingFetch } = setup(fetch);
    const response = await retryingFetch(post({ name: 'Rex', categoryId: 1 }));
    expect(response.status).toBe(201);
    expect(sent).toEqual([
      { method: 'POST', body: '{"name":"Rex","categoryId":1}' },
      { method: 'POST', body: '{"name":"Rex","categoryId":1}' },
    ]);
  });

  it('retries a GET answered 5xx with exponential backoff and full jitter', async () => {
    const error = { code: 'internal_error', message: 'Oops.', status: 500 };
    const { fetch } = scripted(json(500, error), json(503, error), json(502, error), json(200, []));
    const { time, retryingFetch } = setup(fetch, {
      retry: { baseDelayMs: 100, maxDelayMs: 10_000 },
    });
    expect((await retryingFetch(get())).status).toBe(200);
    // random() = 0.5 of ceilings 100, 200, 400
    expect(time.sleeps).toEqual([50, 100, 200]);
  });

  it('reports each retry to onRetry before waiting', async () => {
    const error = { code: 'internal_error', message: 'Oops.', status: 500 };
    const { fetch } = scripted(
      rateLimited('2'),
      json(503, error),
      new TypeError('fetch failed'),
      json(200, []),
    );
    const events: unknown[] = [];
    const { retryingFetch } = setup(fetch, {
      retry: { baseDelayMs: 100, onRetry: (event) => events.push(event) },
    });
    await retryingFetch(get());
    expect(events).toEqual([
      {
        request: 'GET /v1/pets',
        attempt: 1,
        delayMs: 2000,
        waitFrom: 'retry-after',
        status: 429,
        error: undefined,
      },
      {
        request: 'GET /v1/pets',
        attempt: 2,
        delayMs: 100,
        waitFrom: 'backoff',
        status: 503,
        error: undefined,
      },
      {
        request: 'GET /v1/pets',
        attempt: 3,
        delayMs: 200,
        waitFrom: 'backoff',
        status: undefined,
        error: expect.any(NetworkError),
      },
    ]);
  });

  it('caps each backoff wait at maxDelayMs', async () => {
    const error = { code: 'internal_error', message: 'Oops.', status: 500 };
    const { fetch } = scripted(json(500, error), json(500, error), json(500, error), json(200, []));
    const { time, retryingFetch } = setup(fetch, {
      retry: { baseDelayMs: 1000, maxDelayMs: 1500 },
    });
    await retryingFetch(get());
    expect(time.sleeps).toEqual([500, 750, 750]);
  });

  it('never re-sends a POST answered 5xx: it may have been carried out', async () => {
    const { fetch, sent } = scripted(
      json(500, { code: 'internal_error', message: 'Oops.', status: 500 }),
    );
    const { retryingFetch } = setup(fetch);
    expect((await retryingFetch(post({ name: 'Rex', categoryId: 1 }))).status).toBe(500);
    expect(sent).toHaveLength(1);
  });

  it('retries a GET whose connection failed, but throws NetworkError for such a POST at once', async () => {
    const getScript = scripted(new TypeError('fetch failed'), json(200, []));
    expect((await setup(getScript.fetch).retryingFetch(get())).status).toBe(200);
    expect(getScript.sent).toHaveLength(2);

    const postScript = scripted(new TypeError('fetch failed'));
    await expect(setup(postScript.fetch).retryingFetch(post({}))).rejects.toBeInstanceOf(
      NetworkError,
    );
    expect(postScript.sent).toHaveLength(1);
  });

  it.each([
    ['a 503', () => json(503, { code: 'service_unavailable', message: 'Down.', status: 503 })],
    ['a 500', () => json(500, { code: 'internal_error', message: 'Oops.', status: 500 })],
    ['a network failure', () => new TypeError('fetch failed')],
  ])(
    're-sends a POST with an Idempotency-Key after %s, with the same key and body',
    async (_, failure) => {
      const seen: Array<string | null> = [];
      const { fetch, sent } = scripted(failure(), json(201, { id: 1 }));
      const { retryingFetch } = setup((request) => {
        seen.push(request.headers.get('Idempotency-Key'));
        return fetch(request);
      });
      const response = await retryingFetch(post({ name: 'Rex', categoryId: 1 }, KEYED));
      expect(response.status).toBe(201);
      expect(seen).toEqual([KEYED['Idempotency-Key'], KEYED['Idempotency-Key']]);
      expect(sent.map((request) => request.body)).toEqual([
        '{"name":"Rex","categoryId":1}',
        '{"name":"Rex","categoryId":1}',
      ]);
    },
  );

  it('waits the Retry-After of a 409 idempotency_key_in_use, then re-sends the keyed POST', async () => {
    const inUse = json(
      409,
      { code: 'idempotency_key_in_use', message: 'Still working.', status: 409 },
      { 'Retry-After': '1' },
    );
    const { fetch, sent } = scripted(inUse, json(201, { id: 1 }));
    const { time, retryingFetch } = setup(fetch);
    expect((await retryingFetch(post({}, KEYED))).status).toBe(201);
    expect(time.sleeps).toEqual([1000]);
    expect(sent).toHaveLength(2);
  });

  it.each([
    ['a 422 idempotency_key_reused, keyed', 422, 'idempotency_key_reused', KEYED],
    ['a 409 without an Idempotency-Key', 409, 'idempotency_key_in_use', {}],
  ])('returns %s as is, without a retry', async (_, status, code, headers) => {
    const { fetch, sent } = scripted(json(status, { code, message: 'No.', status }));
    const { retryingFetch } = setup(fetch);
    expect((await retryingFetch(post({}, headers))).status).toBe(status);
    expect(sent).toHaveLength(1);
  });

  it('throws RetryBudgetExceededError with the last Error body and retryAt after maxAttempts', async () => {
    const { fetch, sent } = scripted(rateLimited('1'), rateLimited('1'), rateLimited('3'));
    const { time, retryingFetch } = setup(fetch, { retry: { maxAttempts: 3 } });
    const error = await retryingFetch(get()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryBudgetExceededError);
    expect(error).toMatchObject({
      attempts: 3,
      reason: 'attempts',
      status: 429,
      body: { code: 'rate_limited', message: 'Slow down.', status: 429 },
      retryAt: new Date(time.now + 3000),
    });
    expect(sent).toHaveLength(3);
  });

  it('fails fast, without waiting, when Retry-After (a ban) exceeds the time budget left', async () => {
    const { fetch } = scripted(rateLimited('900', 'key_banned'));
    const { time, retryingFetch } = setup(fetch, { retry: { budgetMs: 60_000 } });
    const error = await retryingFetch(get()).catch((e: unknown) => e);
    expect(time.sleeps).toEqual([]);
    expect(error).toBeInstanceOf(RetryBudgetExceededError);
    expect(error).toMatchObject({
      attempts: 1,
      reason: 'time',
      retryAt: new Date(Date.parse('2030-01-01T00:15:00Z')),
      body: { code: 'key_banned' },
    });
    expect((error as Error).message).toBe(
      'GET /v1/pets gave up after 1 attempt(s): the next wait exceeds the retry time budget (last answer 429 key_banned); retry at 2030-01-01T00:15:00.000Z',
    );
  });

  it('counts waits already spent against the time budget', async () => {
    const { fetch, sent } = scripted(rateLimited('40'), rateLimited('30'));
    const { time, retryingFetch } = setup(fetch, { retry: { budgetMs: 60_000 } });
    await expect(retryingFetch(get())).rejects.toMatchObject({ reason: 'time', attempts: 2 });
    expect(time.sleeps).toEqual([40_000]);
    expect(sent).toHaveLength(2);
  });

  it('returns every response as is when retries are off', async () => {
    const { fetch, sent } = scripted(rateLimited('1'));
    const { retryingFetch } = setup(fetch, { retry: false });
    expect((await retryingFetch(get())).status).toBe(429);
    expect(sent).toHaveLength(1);
  });

  it('stops with AbortedError when the caller aborts during a wait, sending nothing more', async () => {
    const { fetch, sent } = scripted(rateLimited('5'), json(200, []));
    const controller = new AbortController();
    const sleep: Sleep = async () => {
      controller.abort(new Error('user navigated away'));
      throw controller.signal.reason;
    };
    const { retryingFetch } = setup(fetch, { sleep });
    await expect(retryingFetch(get(controller.signal))).rejects.toBeInstanceOf(AbortedError);
    expect(sent).toHaveLength(1);
  });

  it('throws AbortedError without sending when the signal is already aborted', async () => {
    const { fetch, sent } = scripted(json(200, []));
    const { retryingFetch } = setup(fetch);
    await expect(retryingFetch(get(AbortSignal.abort()))).rejects.toBeInstanceOf(AbortedError);
    expect(sent).toHaveLength(0);
  });

  it('throws TimeoutError when an attempt outlives timeoutMs, and retries a GET that timed out', async () => {
    // Time limits are sleeps of 1000 ms that fire when the stub fetch says so; backoff
    // sleeps end at once.
    const timeLimits: Array<() => void> = [];
    const sleep: Sleep = (ms, signal) =>
      ms === 1000
        ? new Promise((resolve, reject) => {
            timeLimits.push(resolve);
            signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          })
        : Promise.resolve();
    let calls = 0;
    // Every attempt but the second hangs until its time limit passes.
    const fetch = (request: Request) => {
      calls++;
      if (calls === 2) return Promise.resolve(json(200, []));
      timeLimits.shift()?.();
      return new Promise<Response>((_, reject) =>
        request.signal.addEventListener('abort', () => reject(request.signal.reason)),
      );
    };

    const error = await setup(fetch, { sleep, timeoutMs: 1000 })
      .retryingFetch(post({}))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('POST /v1/pets timed out after 1000 ms');
    expect(calls).toBe(1);

    calls = 0;
    const response = await setup(fetch, { sleep, timeoutMs: 1000 }).retryingFetch(get());
    expect(response.status).toBe(200);
    expect(calls).toBe(2);
  });

  it('holds a request until the reset when throttling and the window is exhausted', async () => {
    const { fetch, sent } = scripted(
      json(200, [], {
        'X-RateLimit-Limit': '2',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(Date.parse('2030-01-01T00:00:10Z') / 1000),
      }),
      json(200, []),
    );
    const { time, retryingFetch, tracker } = setup(fetch, { throttle: true });
    await retryingFetch(get());
    expect(tracker.last?.remaining).toBe(0);
    await retryingFetch(get());
    expect(time.sleeps).toEqual([10_000]);
    expect(sent).toHaveLength(2);
  });

  it('holds a request until the last exhausted window of the RateLimit field resets', async () => {
    // Both windows used up: X-RateLimit-* describe the minute (a tie), RateLimit both.
    const { fetch, sent } = scripted(
      json(200, [], {
        'X-RateLimit-Limit': '2',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(Date.parse('2030-01-01T00:01:00Z') / 1000),
        'RateLimit-Policy': '"minute";q=2;w=60, "day";q=2;w=86400',
        RateLimit: '"minute";r=0;t=60, "day";r=0;t=86400',
      }),
      json(200, []),
    );
    const { time, retryingFetch } = setup(fetch, {
      throttle: true,
      retry: { budgetMs: 86_400_000 },
    });
    await retryingFetch(get());
    await retryingFetch(get());
    expect(time.sleeps).toEqual([86_400_000]);
    expect(sent).toHaveLength(2);
  });
});
