import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveDatabaseUrl } from '../../src/config/index.js';

/** The tracing configuration of an `OTEL_*` environment that sets only the protocol. */
const tracingWith = (protocol: string) => ({
  protocol,
  sampler: { name: 'parentbased_always_on', ratio: 1 },
  batch: {
    scheduledDelayMs: 5000,
    exportTimeoutMs: 30_000,
    maxQueueSize: 2048,
    maxExportBatchSize: 512,
  },
});

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'file:./data/petstore.db',
      databasePoolSize: 10,
      redisUrl: undefined,
      banThreshold: 20,
      banSeconds: 900,
      logLevel: 'info',
      logFormat: 'json',
      trustProxy: false,
      validateResponses: true,
      idempotencyKeyTtlSeconds: 86_400,
      corsOrigins: undefined,
      http: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        maxHeaderBytes: 16_384,
      },
      shutdown: { drainMs: 10_000, timeoutMs: 25_000 },
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', REDIS_URL: '' })).toMatchObject({
      port: 8080,
      redisUrl: undefined,
    });
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '3000',
        HOST: '0.0.0.0',
        DATABASE_URL: 'postgres://u:p@db:5432/petstore',
        DATABASE_POOL_SIZE: '20',
        REDIS_URL: 'redis://cache:6379',
        RATE_LIMIT_BAN_THRESHOLD: '5',
        RATE_LIMIT_BAN_SECONDS: '60',
        LOG_LEVEL: 'debug',
        TRUST_PROXY: 'loopback, 10.0.0.0/8',
        VALIDATE_RESPONSES: 'false',
        IDEMPOTENCY_KEY_TTL_SECONDS: '3600',
        CORS_ORIGINS: 'https://app.example, http://localhost:5173',
        HTTP_HEADERS_TIMEOUT_MS: '2000',
        HTTP_REQUEST_TIMEOUT_MS: '9000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
        HTTP_MAX_HEADER_BYTES: '8192',
        LOG_FORMAT: 'pretty',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        SHUTDOWN_DRAIN_SECONDS: '0',
        SHUTDOWN_TIMEOUT_SECONDS: '2',
      }),
    ).toEqual({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u:p@db:5432/petstore',
      databasePoolSize: 20,
      redisUrl: 'redis://cache:6379',
      banThreshold: 5,
      banSeconds: 60,
      logLevel: 'debug',
      logFormat: 'pretty',
      trustProxy: 'loopback, 10.0.0.0/8',
      validateResponses: false,
      idempotencyKeyTtlSeconds: 3600,
      corsOrigins: ['https://app.example', 'http://localhost:5173'],
      http: {
        headersTimeoutMs: 2000,
        requestTimeoutMs: 9000,
        keepAliveTimeoutMs: 1000,
        maxHeaderBytes: 8192,
      },
      tracing: tracingWith('http/json'),
      shutdown: { drainMs: 0, timeoutMs: 2000 },
    });
  });

  it.each([
    [{}, undefined],
    [{ OTEL_SERVICE_NAME: 'petstore' }, undefined],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, tracingWith('http/protobuf')],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, undefined],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, tracingWith('http/protobuf')],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c/v1/traces' }, tracingWith('http/protobuf')],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      tracingWith('http/json'),
    ],
    [
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      },
      tracingWith('http/protobuf'),
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'TRUE' }, undefined],
  ])('traces for %j: %j', (env, expected) => {
    expect(loadConfig(env).tracing).toEqual(expected);
  });

  it('reads the sampler and the batching of exports from the standard variables', () => {
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_BSP_EXPORT_TIMEOUT: '2000',
        OTEL_BSP_MAX_QUEUE_SIZE: '100',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '100',
      }).tracing,
    ).toEqual({
      protocol: 'http/protobuf',
      sampler: { name: 'parentbased_traceidratio', ratio: 0.25 },
      batch: {
        scheduledDelayMs: 50,
        exportTimeoutMs: 2000,
        maxQueueSize: 100,
        maxExportBatchSize: 100,
      },
    });
  });

  it('refuses a sampler or batching the SDK cannot take, naming each variable', () => {
    expect(
      problemsOf({
        OTEL_TRACES_SAMPLER: 'jaeger_remote',
        OTEL_TRACES_SAMPLER_ARG: '1.5',
        OTEL_BSP_SCHEDULE_DELAY: 'soon',
        OTEL_BSP_MAX_QUEUE_SIZE: '0',
      }),
    ).toEqual([
      'OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio (got "jaeger_remote")',
      'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (got "1.5")',
      'OTEL_BSP_SCHEDULE_DELAY must be a whole number (got "soon")',
      'OTEL_BSP_MAX_QUEUE_SIZE must be at least 1 (got "0")',
    ]);
    expect(problemsOf({ OTEL_TRACES_SAMPLER_ARG: 'half' })).toEqual([
      'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (got "half")',
    ]);
    expect(
      problemsOf({ OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '200' }),
    ).toEqual([
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE must be at most OTEL_BSP_MAX_QUEUE_SIZE (got 200 with OTEL_BSP_MAX_QUEUE_SIZE 100)',
    ]);
  });

  it('refuses an OTLP protocol or exporter the server does not have', () => {
    expect(
      problemsOf({
        OTEL_TRACES_EXPORTER: 'zipkin',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317',
        LOG_FORMAT: 'text',
      }),
    ).toEqual([
      'LOG_FORMAT must be one of json, pretty (got "text")',
      'OTEL_TRACES_EXPORTER must be otlp or none (the server exports traces over OTLP only) (got "zipkin")',
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL',
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http/protobuf or http/json (the server exports traces over OTLP/HTTP only) (got "grpc")',
    ]);
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['loopback', 'loopback'],
  ])('reads TRUST_PROXY=%s as %j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    ['*', '*'],
    ['https://a.example', ['https://a.example']],
    ['https://a.example,http://127.0.0.1:5173', ['https://a.example', 'http://127.0.0.1:5173']],
  ])('reads CORS_ORIGINS=%s as %j', (value, expected) => {
    expect(loadConfig({ CORS_ORIGINS: value }).corsOrigins).toEqual(expected);
  });

  it('leaves a second for requests in flight and one to close the store after the drain', () => {
    expect(
      loadConfig({ SHUTDOWN_DRAIN_SECONDS: '5', SHUTDOWN_TIMEOUT_SECONDS: '7' }).shutdown,
    ).toEqual({ drainMs: 5000, timeoutMs: 7000 });
    expect(() =>
      loadConfig({ SHUTDOWN_DRAIN_SECONDS: '5', SHUTDOWN_TIMEOUT_SECONDS: '6' }),
    ).toThrow(
      'SHUTDOWN_TIMEOUT_SECONDS must be at least SHUTDOWN_DRAIN_SECONDS + 2, leaving a second ' +
        'for requests in flight and one to close the store (got 6 with SHUTDOWN_DRAIN_SECONDS 5)',
    );
    // The default timeout (25 s) leaves no room for a drain of 30 s: say so rather than cut.
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '30' })).toThrow(ConfigError);
  });

  it('never lets the headers deadline come after the whole request’s', () => {
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '500' }).http).toMatchObject({
      headersTimeoutMs: 500,
      requestTimeoutMs: 500,
    });
  });

  it('turns response validation off in production unless asked for', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).validateResponses).toBe(false);
    expect(
      loadConfig({ NODE_ENV: 'production', VALIDATE_RESPONSES: 'true' }).validateResponses,
    ).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).validateResponses).toBe(true);
  });

  it.each([
    [{ PORT: '-1' }, 'PORT must be a whole number (got "-1")'],
    [{ PORT: '65536' }, 'PORT must be at most 65535 (got "65536")'],
    [{ HOST: '   ' }, 'HOST must not be empty (got "   ")'],
    [
      { DATABASE_URL: './petstore.db' },
      'DATABASE_URL must be file:PATH (SQLite) or postgres://USER:PASSWORD@HOST:PORT/DB',
    ],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL must be redis://HOST:PORT or rediss://HOST:PORT'],
    [{ RATE_LIMIT_BAN_THRESHOLD: '0' }, 'RATE_LIMIT_BAN_THRESHOLD must be at least 1 (got "0")'],
    [
      { RATE_LIMIT_BAN_SECONDS: '15m' },
      'RATE_LIMIT_BAN_SECONDS must be a whole number (got "15m")',
    ],
    [
      { LOG_LEVEL: 'verbose' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
    ],
    [{ VALIDATE_RESPONSES: 'yes' }, 'VALIDATE_RESPONSES must be true or false (got "yes")'],
    [
      { CORS_ORIGINS: 'app.example' },
      'CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example (got "app.example")',
    ],
    [
      { CORS_ORIGINS: 'https://app.example/path' },
      'CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example (got "https://app.example/path")',
    ],
    [{ HTTP_HEADERS_TIMEOUT_MS: '10' }, 'HTTP_HEADERS_TIMEOUT_MS must be at least 100 (got "10")'],
    [{ HTTP_MAX_HEADER_BYTES: '100' }, 'HTTP_MAX_HEADER_BYTES must be at least 1024 (got "100")'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE must be at least 1 (got "0")'],
    [
      { SHUTDOWN_DRAIN_SECONDS: '1.5' },
      'SHUTDOWN_DRAIN_SECONDS must be a whole number (got "1.5")',
    ],
    [{ SHUTDOWN_TIMEOUT_SECONDS: '1' }, 'SHUTDOWN_TIMEOUT_SECONDS must be at least 2 (got "1")'],
  ])('names the bad value in %j', (env, message) => {
    expect(problemsOf(env)).toEqual([message]);
  });

  it('reports every bad variable at once, never echoing URLs (they may hold passwords)', () => {
    const problems = problemsOf({ PORT: 'x', DATABASE_URL: 'mysql://root:secret@db' });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).not.toContain('secret');
  });
});

describe('resolveDatabaseUrl', () => {
  it('makes a relative file: path absolute against the given folder', () => {
    expect(resolveDatabaseUrl('file:./data/petstore.db', '/srv/app')).toBe(
      'file:/srv/app/data/petstore.db',
    );
  });

  it.each(['file:/var/lib/petstore.db', 'file::memory:', 'postgres://db/petstore'])(
    'leaves %s as it is',
    (url) => {
      expect(resolveDatabaseUrl(url, '/srv/app')).toBe(url);
    },
  );
});
