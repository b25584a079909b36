/** The module-resolution hook of `record-opentelemetry-imports.mjs` (runs on Node's loader thread). */
import { appendFileSync } from 'node:fs';

let file = '';

export function initialize(recordTo) {
  file = recordTo;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.includes('/node_modules/@opentelemetry/'))
    appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
