/**
 * HTTP plumbing around the operations: request ids, request logs (and the observers of each sent
 * response), security headers, the query parsed once, the JSON body parser, response headers
 * gathered and written with the status line at once, JSON answers written at the end of the
 * event loop's turn, the deprecation headers of getPet, the last-route 404, and the translation
 * of the errors Express and the body parser raise.
 */
export { getPetDeprecation, GET_PET_DEPRECATION, GET_PET_SUNSET } from './deprecation.js';
export { translateExpressError } from './express-errors.js';
export { chain, exceptUnderApi, isUnderApi, onlyUnderApi } from './chain.js';
export { corsFor, corsHeadersOf, PREFLIGHT_MAX_AGE_SECONDS } from './cors.js';
export { BODY_LIMIT_BYTES, jsonBody, translateBodyParserError } from './json-body.js';
export { notFound } from './not-found.js';
export { parseQueryOnce } from './query-once.js';
export { requestId } from './request-id.js';
export { gatherHeader, gatherHeaders, writeGatheredHeadersOn } from './response-headers.js';
export { endAtTurnEnd, sendJson, type SendJsonOptions } from './send-json.js';
export { requestLog, type RequestLogOptions } from './request-log.js';
export { observeResponses, type ResponseObserver } from './response-observers.js';
export { docsSecurityHeaders, securityHeaders } from './security-headers.js';
