import type { RequestHandler } from 'express';
import { gatherHeaders } from './response-headers.js';

/** `getPet` is deprecated since this time (RFC 9745 §2.1: `@` + Unix seconds). */
export const GET_PET_DEPRECATION = '@1795219200';
/** …and removed at this time (RFC 8594 §3: an HTTP-date). */
export const GET_PET_SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
/** The replacement (`successor-version`) and the deprecation notice (`deprecation`, RFC 9745 §3). */
export const GET_PET_DEPRECATION_LINK =
  '</v1/pets>; rel="successor-version", </docs#tag/Pets/operation/getPet>; rel="deprecation"; type="text/html"';

const DEPRECATION_HEADERS: readonly string[] = [
  ...['Deprecation', GET_PET_DEPRECATION],
  ...['Sunset', GET_PET_SUNSET],
  ...['Link', GET_PET_DEPRECATION_LINK],
];

/** The path of getPet: one segment below `/v1/pets`, whatever it holds (it is not decoded). */
const GET_PET_PATH = /^\/v1\/pets\/[^/]+\/?$/i;

/**
 * Announces the deprecation of `GET /v1/pets/{petId}` on every one of its answers, errors included
 * (run before authentication, rate limiting and validation, so 400, 401, 404, 429 and 500
 * carry it too). It matches the path itself rather than through an Express route
 * parameter, whose decoding would fail on a bad percent-encoding before the request is counted.
 */
export function getPetDeprecation(): RequestHandler {
  return (req, res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && GET_PET_PATH.test(req.path)) {
      gatherHeaders(res, DEPRECATION_HEADERS);
    }
    next();
  };
}
