/**
 * Preloaded with `--import` (through NODE_OPTIONS): records, one per line in the file
 * `RECORD_IMPORTS_FILE` names, every module under `@opentelemetry/` the process resolves, so a
 * test can tell whether a server loaded the OpenTelemetry SDK at all.
 */
import { register } from 'node:module';

register('./record-opentelemetry-imports-hooks.mjs', import.meta.url, {
  data: process.env.RECORD_IMPORTS_FILE,
});
