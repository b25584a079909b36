// The servers the benchmark compares: ours, and three baselines answering from memory.
import path from 'node:path';
import { baselinesDir, mainJs, serverDir } from './paths.mjs';
import { AGAINST, REFERENCE } from './scenarios.mjs';

/** Log levels at which our server writes its `"msg":"listening"` line. */
const levelsShowingInfo = new Set(['info', 'debug', 'trace']);

/**
 * Each target: a title for the report and how to run it for a data set — `store` is our
 * store (`{ url }`), `pets` how many pets the baselines hold. Our server runs as in production:
 * the built dist/main.js with NODE_ENV=production (response validation off), in-memory rate
 * limits (no REDIS_URL), behind a (pretend) proxy on loopback, its JSON log written to a file
 * (or, with `--log-to pipe`, to a pipe the harness copies to that file).
 */
export const targets = {
  ours: {
    title: 'ours',
    launch: ({ store, logLevel, logTo, poolSize, nodeOptions, metricsToken }) => ({
      args: [mainJs],
      cwd: serverDir,
      // `--log-to pipe`: stdout a pipe the harness reads (processes.mjs).
      stdout: logTo,
      env: {
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        DATABASE_URL: store.url,
        LOG_LEVEL: logLevel,
        // As behind a load balancer on this host: the client address is X-Forwarded-For's.
        // The no-auth scenario sends a new address per request, so what it measures is the
        // 401 path, not the per-address limit it would otherwise use up in its warm-up.
        TRUST_PROXY: 'loopback',
        // Nothing routes by its readiness: stopping it between runs need not drain.
        SHUTDOWN_DRAIN_SECONDS: '0',
        ...(poolSize === undefined ? {} : { DATABASE_POOL_SIZE: String(poolSize) }),
        // Runtime flags to compare (--node-options), e.g. V8's heap sizes.
        ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions }),
        // The soak reads the V8 heap's spaces from /metrics (prom-client's default metrics).
        ...(metricsToken === undefined ? {} : { METRICS_TOKEN: metricsToken }),
      },
      readiness: levelsShowingInfo.has(logLevel) ? 'log' : 'healthz',
    }),
  },
  // Ours with OpenTelemetry tracing on: every span exported over OTLP/HTTP (protobuf, the
  // default protocol) to the harness's sink (otlp-sink.mjs); "ours ÷ ours-traced" is its cost.
  'ours-traced': {
    title: 'ours, tracing on',
    launch: (data) => {
      const ours = targets.ours.launch(data);
      return {
        ...ours,
        env: {
          ...ours.env,
          OTEL_SERVICE_NAME: 'petstore-bench',
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
          OTEL_EXPORTER_OTLP_ENDPOINT: data.otlpSink,
        },
      };
    },
  },
  // Another build of our server (`--against`: a checkout, or its packages/server/dist/main.js),
  // run as ours is on the same store: "ours ÷ against" is what a change between them bought.
  [AGAINST]: {
    title: 'ours, the --against build',
    launch: (data) => {
      const ours = targets.ours.launch(data);
      return { ...ours, args: [data.against], cwd: path.dirname(path.dirname(data.against)) };
    },
  },
  'node-http': {
    title: 'bare node:http',
    launch: ({ pets }) => baseline('node-http.mjs', pets),
  },
  express: {
    title: 'bare Express 5',
    launch: ({ pets }) => baseline('express.mjs', pets),
  },
  naive: {
    title: 'Express 5 + validator',
    launch: ({ pets }) => baseline('express-validator.mjs', pets),
  },
};

export const targetNames = Object.keys(targets);

/** Our server on the 1,000-pet reference store in the scale scenarios; not a --targets choice. */
const reference = { title: 'ours, 1,000 pets', launch: (data) => targets.ours.launch(data) };

/** A target by name, the scale scenarios' reference included. */
export function targetFor(name) {
  return name === REFERENCE ? reference : targets[name];
}

function baseline(file, pets) {
  return {
    args: [path.join(baselinesDir, file)],
    cwd: baselinesDir,
    env: { NODE_ENV: 'production', PETS: String(pets) },
    readiness: 'log',
  };
}
