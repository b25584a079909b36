import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { middleware as openApiValidatorMiddleware } from 'express-openapi-validator';
import { bearerAuth } from '../auth/bearer-security.js';

const require = createRequire(import.meta.url);

/** The bundled description (generated from `openapi/openapi.yaml`), from `@petstore/types`. */
export const openApiJsonFile = require.resolve('@petstore/types/openapi.json');
/** The same bundle in YAML. */
export const openApiYamlFile = require.resolve('@petstore/types/openapi.yaml');
/** The offline HTML reference built by `npm run docs` beside the bundle. */
export const docsHtmlFile = path.join(path.dirname(openApiJsonFile), '..', 'docs', 'index.html');

export interface OpenApiValidationOptions {
  /** Also check every JSON response against the contract (a mismatch becomes a 500). */
  validateResponses: boolean;
}

/**
 * express-openapi-validator over the bundled description: it resolves the operation, runs the
 * `bearerAuth` security handler (401), checks parameters and body (400, 415; unknown query
 * parameters and body properties are errors), answers 404/405 for unknown paths/methods under
 * `/v1`, and, when asked, validates responses. The schemas are compiled on first use, which is
 * why the server warms up before it reports ready.
 */
export function openApiValidation({
  validateResponses,
}: OpenApiValidationOptions): RequestHandler[] {
  const apiSpec = JSON.parse(readFileSync(openApiJsonFile, 'utf8'));
  return openApiValidatorMiddleware({
    apiSpec,
    // The bundle is linted and validated against the OpenAPI 3.1 schema in CI (packages/types).
    validateApiSpec: false,
    validateRequests: { allowUnknownQueryParameters: false, removeAdditional: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: { handlers: { bearerAuth } },
    validateFormats: true,
    ignoreUndocumented: false,
  }) as unknown as RequestHandler[];
}
