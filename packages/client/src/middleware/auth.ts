import type { Middleware } from 'openapi-fetch';

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Checks an API key before it is used. The message never repeats the key: a malformed
 * key would otherwise surface in `Headers.set`'s own error, which quotes the value.
 */
export function assertApiKey(apiKey: unknown): asserts apiKey is string {
  if (typeof apiKey !== 'string' || apiKey.length === 0) {
    throw new TypeError('apiKey is required: pass the API key the store issued to you');
  }
  if (!B64TOKEN.test(apiKey)) {
    throw new TypeError(
      'apiKey is not a valid bearer token (RFC 6750 b64token): check for spaces, quotes or line breaks',
    );
  }
}

/**
 * openapi-fetch middleware that sends the API key as a bearer token
 * (`Authorization: Bearer <API_KEY>`, RFC 6750 §2.1) on every request.
 *
 * @example
 * ```ts
 * const raw = createClient<paths>({ baseUrl });
 * raw.use(bearerAuth(apiKey));
 * ```
 */
export function bearerAuth(apiKey: string): Middleware {
  assertApiKey(apiKey);
  const authorization = `Bearer ${apiKey}`;
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', authorization);
      return request;
    },
  };
}
