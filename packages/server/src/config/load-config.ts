import path from 'node:path';
import { z } from 'zod';

/** pino's levels, plus `silent`. */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** How log lines are written: one JSON object per line, or pino-pretty's lines for people. */
export const logFormats = ['json', 'pretty'] as const;
export type LogFormat = (typeof logFormats)[number];

/** The OTLP/HTTP encodings the server can export traces in. */
export const otlpProtocols = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof otlpProtocols)[number];

/** The samplers `OTEL_TRACES_SAMPLER` may name: the SDK's built-in ones. */
export const traceSamplers = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TraceSamplerName = (typeof traceSamplers)[number];

/**
 * OpenTelemetry tracing, when the `OTEL_*` variables ask for it. The server builds the tracer
 * provider from these standard variables (the 3.x SDK reads none itself); the exporter reads
 * the rest (endpoint, headers, timeout, compression), the resource detectors the service name.
 */
export interface TracingConfig {
  /** `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`, else `http/protobuf`. */
  protocol: OtlpProtocol;
  /** `OTEL_TRACES_SAMPLER` (default `parentbased_always_on`) and `OTEL_TRACES_SAMPLER_ARG`. */
  sampler: TraceSampler;
  /** `OTEL_BSP_*`: how finished spans are batched for export. */
  batch: SpanBatching;
}

export interface TraceSampler {
  name: TraceSamplerName;
  /** The share of new traces a `…traceidratio` sampler keeps, 0 to 1 (default 1). */
  ratio: number;
}

/** The batch span processor's settings, with the specification's defaults. */
export interface SpanBatching {
  /** `OTEL_BSP_SCHEDULE_DELAY`: ms between two exports (5000). */
  scheduledDelayMs: number;
  /** `OTEL_BSP_EXPORT_TIMEOUT`: ms an export may take (30000). */
  exportTimeoutMs: number;
  /** `OTEL_BSP_MAX_QUEUE_SIZE`: spans held at most; past it, new spans are dropped (2048). */
  maxQueueSize: number;
  /** `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`: spans per export at most, ≤ the queue's size (512). */
  maxExportBatchSize: number;
}

/**
 * Express's `trust proxy` setting (https://expressjs.com/en/guide/behind-proxies.html):
 * false (default: the client address is the socket's), true, a hop count, or a list of
 * addresses/subnets/names such as `loopback, 10.0.0.0/8`.
 */
export type TrustProxy = boolean | number | string;

/** The server's configuration, validated. */
export interface AppConfig {
  port: number;
  host: string;
  /** `file:PATH` (SQLite) or `postgres://…` (PostgreSQL). */
  databaseUrl: string;
  /** PostgreSQL only: the size of the connection pool. */
  databasePoolSize: number;
  /** Set: rate limits are shared through Redis; unset: kept in this process's memory. */
  redisUrl: string | undefined;
  /** How many 429 answers to one key within a minute ban it. */
  banThreshold: number;
  /** How long a ban lasts, in seconds. */
  banSeconds: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
  trustProxy: TrustProxy;
  /** Check every response against the contract (a mismatch becomes a logged 500). */
  validateResponses: boolean;
  /** How long an `Idempotency-Key` is kept after its create, in seconds. */
  idempotencyKeyTtlSeconds: number;
  /** The bearer token `/metrics` requires; undefined: no `/metrics` at all. */
  metricsToken: string | undefined;
  /** Origins whose browser apps may call the API (CORS); undefined: no CORS headers. */
  corsOrigins: CorsOrigins | undefined;
  /** Limits of the HTTP transport, against slow or oversized requests. */
  http: HttpLimits;
  /** Undefined: no tracing, and the OpenTelemetry SDK is never loaded. */
  tracing: TracingConfig | undefined;
  /** How a SIGTERM stops the server without dropping a request. */
  shutdown: ShutdownTimes;
}

/** The graceful shutdown's times (`docs/operations.md#graceful-shutdown`). */
export interface ShutdownTimes {
  /**
   * After the signal, `/readyz` answers 503 while everything else is still served, for this
   * long, so that a load balancer stops sending before the listener closes.
   */
  drainMs: number;
  /** From the signal to the process's exit, at most; in-flight requests are cut 1 s before. */
  timeoutMs: number;
}

/** `CORS_ORIGINS`: every origin (`*`), or a list of exact origins. */
export type CorsOrigins = '*' | readonly string[];

/** Limits of the HTTP transport (Node's `http.Server` settings). */
export interface HttpLimits {
  /** A request's headers must arrive within this many ms (slowloris), else 408 and closed. */
  headersTimeoutMs: number;
  /** A whole request, body included, must arrive within this many ms, else 408 and closed. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this many ms. */
  keepAliveTimeoutMs: number;
  /** The largest request head (request line and headers) accepted, in bytes; larger: 431. */
  maxHeaderBytes: number;
}

/** A browser origin: scheme, host and optional port, nothing else. */
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * Ten seconds of draining: HAProxy with its default checks (`inter 2s fall 3`) marks an instance
 * down within 6 s of the signal plus a check's timeout (the first failed `/readyz` within 2 s,
 * two more 2 s apart), and Kubernetes takes a few seconds to remove a terminating pod from its
 * endpoints; ten covers both.
 */
const DEFAULT_DRAIN_SECONDS = 10;
/**
 * 25 s from the signal to the exit: the drain, then up to 14 s for requests in flight and 1 s to
 * close the store, all inside Kubernetes' default `terminationGracePeriodSeconds` (30 s).
 */
const DEFAULT_SHUTDOWN_TIMEOUT_SECONDS = 25;

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `${name} must be at least ${min}`)
        .max(max, `${name} must be at most ${max}`),
    );

const booleanFlag = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: `${name} must be true or false` })
    .transform((value) => value === 'true' || value === '1');

const otlpProtocol = (name: string) =>
  z.enum(otlpProtocols, {
    error: `${name} must be http/protobuf or http/json (the server exports traces over OTLP/HTTP only)`,
  });

const httpUrl = (name: string) =>
  z.string().regex(/^https?:\/\/.+/, `${name} must be an http:// or https:// URL`);

const envSchema = z.object({
  PORT: wholeNumber('PORT', 0, 65535).default(8080),
  HOST: z.string().trim().min(1, 'HOST must not be empty').default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(
      /^(file:.+|postgres(ql)?:\/\/.+)$/,
      'DATABASE_URL must be file:PATH (SQLite) or postgres://USER:PASSWORD@HOST:PORT/DB',
    )
    .default('file:./data/petstore.db'),
  DATABASE_POOL_SIZE: wholeNumber('DATABASE_POOL_SIZE', 1, 1000).default(10),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/.+/, 'REDIS_URL must be redis://HOST:PORT or rediss://HOST:PORT')
    .optional(),
  RATE_LIMIT_BAN_THRESHOLD: wholeNumber('RATE_LIMIT_BAN_THRESHOLD', 1, 1_000_000).default(20),
  RATE_LIMIT_BAN_SECONDS: wholeNumber('RATE_LIMIT_BAN_SECONDS', 1, 31_536_000).default(900),
  LOG_LEVEL: z
    .enum(logLevels, { error: `LOG_LEVEL must be one of ${logLevels.join(', ')}` })
    .default('info'),
  LOG_FORMAT: z
    .enum(logFormats, { error: `LOG_FORMAT must be one of ${logFormats.join(', ')}` })
    .default('json'),
  TRUST_PROXY: z
    .string()
    .trim()
    .min(1, 'TRUST_PROXY must not be empty')
    .transform((value): TrustProxy => {
      if (value === 'true' || value === 'false') return value === 'true';
      return /^\d+$/.test(value) ? Number(value) : value;
    })
    .default(false),
  VALIDATE_RESPONSES: booleanFlag('VALIDATE_RESPONSES').optional(),
  CORS_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .refine(
      (origins) =>
        (origins.length === 1 && origins[0] === '*') ||
        (origins.length > 0 && origins.every((origin) => ORIGIN.test(origin))),
      'CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example',
    )
    .transform((origins): CorsOrigins => (origins[0] === '*' ? '*' : origins))
    .optional(),
  IDEMPOTENCY_KEY_TTL_SECONDS: wholeNumber('IDEMPOTENCY_KEY_TTL_SECONDS', 1, 2_592_000).default(
    86_400,
  ),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7E]{16,256}$/, 'METRICS_TOKEN must be 16 to 256 visible ASCII characters')
    .optional(),
  HTTP_HEADERS_TIMEOUT_MS: wholeNumber('HTTP_HEADERS_TIMEOUT_MS', 100, 600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: wholeNumber('HTTP_REQUEST_TIMEOUT_MS', 100, 3_600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: wholeNumber('HTTP_KEEP_ALIVE_TIMEOUT_MS', 100, 600_000).default(
    5_000,
  ),
  HTTP_MAX_HEADER_BYTES: wholeNumber('HTTP_MAX_HEADER_BYTES', 1024, 1_048_576).default(16_384),
  SHUTDOWN_DRAIN_SECONDS: wholeNumber('SHUTDOWN_DRAIN_SECONDS', 0, 3600).default(
    DEFAULT_DRAIN_SECONDS,
  ),
  SHUTDOWN_TIMEOUT_SECONDS: wholeNumber('SHUTDOWN_TIMEOUT_SECONDS', 2, 3602).default(
    DEFAULT_SHUTDOWN_TIMEOUT_SECONDS,
  ),
  NODE_ENV: z.string().optional(),
  // OpenTelemetry's standard variables (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/):
  // only those that decide whether and how the server traces.
  OTEL_SDK_DISABLED: z.string().optional(),
  OTEL_TRACES_EXPORTER: z
    .enum(['otlp', 'none'], {
      error: 'OTEL_TRACES_EXPORTER must be otlp or none (the server exports traces over OTLP only)',
    })
    .optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT').optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT').optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol('OTEL_EXPORTER_OTLP_PROTOCOL').optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL').optional(),
  OTEL_TRACES_SAMPLER: z
    .enum(traceSamplers, {
      error: `OTEL_TRACES_SAMPLER must be one of ${traceSamplers.join(', ')}`,
    })
    .default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z
    .string()
    .transform(Number)
    .pipe(
      z
        .number({ error: 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1' })
        .min(0, 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1')
        .max(1, 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1'),
    )
    .default(1),
  OTEL_BSP_SCHEDULE_DELAY: wholeNumber('OTEL_BSP_SCHEDULE_DELAY', 0, 3_600_000).default(5000),
  OTEL_BSP_EXPORT_TIMEOUT: wholeNumber('OTEL_BSP_EXPORT_TIMEOUT', 1, 600_000).default(30_000),
  OTEL_BSP_MAX_QUEUE_SIZE: wholeNumber('OTEL_BSP_MAX_QUEUE_SIZE', 1, 1_000_000).default(2048),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: wholeNumber(
    'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
    1,
    1_000_000,
  ).default(512),
});

/** Variables whose values a problem never echoes: URLs may hold passwords, tokens are secrets. */
const secretVariables = new Set([
  'DATABASE_URL',
  'REDIS_URL',
  'METRICS_TOKEN',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
]);

/** Thrown by `loadConfig` with one line per bad variable. */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Reads the configuration from environment variables; throws a `ConfigError` naming every
 * bad value. Empty variables count as unset. Response validation is on unless
 * `NODE_ENV=production`; `VALIDATE_RESPONSES=true|false` overrides that.
 *
 * @example
 * ```ts
 * const config = loadConfig({ PORT: '3000', DATABASE_URL: 'file:/var/lib/petstore.db' });
 * ```
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): AppConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment');
        const value = present[name];
        const secret = secretVariables.has(name);
        const shown = secret ? '' : ` (got "${value}")`;
        return `${issue.message}${value === undefined ? '' : shown}`;
      }),
    );
  }
  const e = parsed.data;
  if (e.SHUTDOWN_TIMEOUT_SECONDS < e.SHUTDOWN_DRAIN_SECONDS + 2) {
    throw new ConfigError([
      `SHUTDOWN_TIMEOUT_SECONDS must be at least SHUTDOWN_DRAIN_SECONDS + 2, leaving a second ` +
        `for requests in flight and one to close the store (got ${e.SHUTDOWN_TIMEOUT_SECONDS} ` +
        `with SHUTDOWN_DRAIN_SECONDS ${e.SHUTDOWN_DRAIN_SECONDS})`,
    ]);
  }
  if (e.OTEL_BSP_MAX_EXPORT_BATCH_SIZE > e.OTEL_BSP_MAX_QUEUE_SIZE) {
    throw new ConfigError([
      `OTEL_BSP_MAX_EXPORT_BATCH_SIZE must be at most OTEL_BSP_MAX_QUEUE_SIZE (got ` +
        `${e.OTEL_BSP_MAX_EXPORT_BATCH_SIZE} with OTEL_BSP_MAX_QUEUE_SIZE ${e.OTEL_BSP_MAX_QUEUE_SIZE})`,
    ]);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    redisUrl: e.REDIS_URL,
    banThreshold: e.RATE_LIMIT_BAN_THRESHOLD,
    banSeconds: e.RATE_LIMIT_BAN_SECONDS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    trustProxy: e.TRUST_PROXY,
    validateResponses: e.VALIDATE_RESPONSES ?? e.NODE_ENV !== 'production',
    idempotencyKeyTtlSeconds: e.IDEMPOTENCY_KEY_TTL_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    corsOrigins: e.CORS_ORIGINS,
    http: {
      // A request's headers are part of the request: their deadline cannot be the later one.
      headersTimeoutMs: Math.min(e.HTTP_HEADERS_TIMEOUT_MS, e.HTTP_REQUEST_TIMEOUT_MS),
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxHeaderBytes: e.HTTP_MAX_HEADER_BYTES,
    },
    tracing: tracingRequested(e) ? tracingConfig(e) : undefined,
    shutdown: {
      drainMs: e.SHUTDOWN_DRAIN_SECONDS * 1000,
      timeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    },
  };
}

/**
 * Whether the `OTEL_*` variables ask for traces: `OTEL_TRACES_EXPORTER=otlp`, or an OTLP
 * endpoint without `OTEL_TRACES_EXPORTER=none`; never with `OTEL_SDK_DISABLED=true`. Unlike
 * the SDK's own default (export to localhost), nothing set means no tracing at all.
 */
function tracingRequested(e: z.infer<typeof envSchema>): boolean {
  if (e.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (e.OTEL_TRACES_EXPORTER !== undefined) return e.OTEL_TRACES_EXPORTER === 'otlp';
  return (
    e.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined ||
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined
  );
}

function tracingConfig(e: z.infer<typeof envSchema>): TracingConfig {
  return {
    protocol:
      e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? e.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
    sampler: { name: e.OTEL_TRACES_SAMPLER, ratio: e.OTEL_TRACES_SAMPLER_ARG },
    batch: {
      scheduledDelayMs: e.OTEL_BSP_SCHEDULE_DELAY,
      exportTimeoutMs: e.OTEL_BSP_EXPORT_TIMEOUT,
      maxQueueSize: e.OTEL_BSP_MAX_QUEUE_SIZE,
      maxExportBatchSize: e.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
    },
  };
}

/**
 * Makes a relative `file:` DATABASE_URL absolute against `baseDir`, so the server (run by
 * npm inside its workspace) and the keys CLI (run from the root) open the same file.
 */
export function resolveDatabaseUrl(databaseUrl: string, baseDir: string): string {
  if (!databaseUrl.startsWith('file:')) return databaseUrl;
  const file = databaseUrl.slice('file:'.length);
  if (file === ':memory:' || path.isAbsolute(file)) return databaseUrl;
  return `file:${path.resolve(baseDir, file)}`;
}
