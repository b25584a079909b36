/**
 * Errors: the registry every error response is built from (`ApiError`), and the one error
 * middleware. Each source of errors (the validator, the body parser, Express, the store)
 * translates its own errors where they arise; the handler only picks the translation.
 */
export { ApiError, errorRegistry } from './api-error.js';
export { errorHandler, type ErrorHandlerOptions, type ErrorTranslator } from './error-handler.js';
