/**
 * Generated from openapi/openapi.yaml by `npm run generate` (openapi-typescript).
 * Do not edit: change the description, then regenerate.
 */

export interface paths {
    "/pets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List animals
         * @description Returns the animals of the catalogue as a plain JSON array, ordered by `id`
         *     ascending, optionally filtered by `status`. At most `limit` animals are returned;
         *     when more match, the `Link` header carries a `rel="next"` link to the next page.
         *
         *     Every page carries a strong `ETag` covering its body and its `Link` header; send it
         *     back in `If-None-Match` to get `304 Not Modified` while the page is unchanged.
         *     `HEAD` is answered too (the same status and headers, no body).
         */
        get: operations["listPets"];
        put?: never;
        /**
         * Add an animal
         * @description Adds an animal to the catalogue. The service assigns its `id` and returns the
         *     stored animal. `name` and `categoryId` are required; an omitted `status` stays
         *     absent (there is no default). Unknown properties, `id` among them, are rejected.
         *
         *     With an `Idempotency-Key`, a retry of the same request is answered with the
         *     original `201` and the same animal (`Idempotent-Replayed: true`) instead of adding
         *     a second one; see *Retrying a create safely* in the overview.
         */
        post: operations["createPet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an animal
         * @deprecated
         * @description **Deprecated**: this operation will be removed on **5 December 2030**. Use
         *     `GET /pets` with the `status` filter instead.
         *
         *     Returns one animal by its identifier. Every response of this operation carries
         *     `Deprecation`, `Sunset` and `Link` headers announcing the removal. The `200` carries
         *     a strong `ETag`; send it back in `If-None-Match` to get `304 Not Modified` while the
         *     animal is unchanged. `HEAD` is answered too (the same status and headers, no body).
         */
        get: operations["getPet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Availability status of an animal.
         * @enum {string}
         */
        PetStatus: "available" | "pending" | "sold";
        /**
         * @description The animal's name: 1 to 255 characters, none of them a control character
         *     (U+0000–U+001F, U+007F), which no name needs and not every store can keep. It must
         *     be well-formed Unicode: a name holding a lone UTF-16 surrogate (a JSON escape of a
         *     code unit from U+D800 to U+DFFF without its partner) gets `400` naming the field,
         *     and nothing is stored. (The service enforces that rule; no regular expression says
         *     it the same way with and without the `u` flag.)
         */
        PetName: string;
        /**
         * Format: int64
         * @description Identifier of the category the animal belongs to.
         */
        CategoryId: number;
        /** @description An animal to add. The service assigns its `id`. */
        NewPet: {
            name: components["schemas"]["PetName"];
            categoryId: components["schemas"]["CategoryId"];
            status?: components["schemas"]["PetStatus"];
        };
        /** @description An animal of the catalogue. */
        Pet: {
            /**
             * Format: int64
             * @description Unique identifier assigned by the service at creation.
             */
            id: number;
            name: components["schemas"]["PetName"];
            categoryId: components["schemas"]["CategoryId"];
            status?: components["schemas"]["PetStatus"];
        };
        /**
         * @description Machine-readable error code of the statuses of version 1.0:
         *     `invalid_request` (400), `unauthorized` (401), `not_found` (404),
         *     `method_not_allowed` (405), `payload_too_large` (413),
         *     `unsupported_media_type` (415), `rate_limited` (429), `key_banned` (429),
         *     `internal_error` (500). The codes added in 1.1 have schemas of their own
         *     (`IdempotencyErrorCode`, `ServiceUnavailableErrorCode`), so that this list, which
         *     1.0 clients know, never grows.
         * @enum {string}
         */
        ErrorCode: "invalid_request" | "unauthorized" | "not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "key_banned" | "internal_error";
        /**
         * @description Human-readable description of the error, for people and logs; never parse it (the
         *     `code` is for programs). It never contains stack traces or internals.
         */
        ErrorMessage: string;
        /**
         * Format: int32
         * @description The HTTP status code of the response (always the status line's).
         */
        ErrorStatus: number;
        /**
         * @description The body of every error response of the statuses of version 1.0 (400, 401, 404,
         *     405, 413, 415, 429, 500). Named `Error` until 1.0; renamed so that generated code
         *     does not shadow the global `Error`. The wire format is unchanged.
         */
        ErrorBody: {
            code: components["schemas"]["ErrorCode"];
            message: components["schemas"]["ErrorMessage"];
            status: components["schemas"]["ErrorStatus"];
        };
        /**
         * @description Why a create with an `Idempotency-Key` was refused: `idempotency_key_in_use` (409,
         *     the first request with this key is still being processed) or
         *     `idempotency_key_reused` (422, the key was used with a different body).
         * @enum {string}
         */
        IdempotencyErrorCode: "idempotency_key_in_use" | "idempotency_key_reused";
        /**
         * @description The body of `409` and `422` from `createPet`: the same three fields as `ErrorBody`,
         *     with `idempotency_key_in_use` always `409` and `idempotency_key_reused` always
         *     `422`.
         */
        IdempotencyErrorBody: {
            code: components["schemas"]["IdempotencyErrorCode"];
            message: components["schemas"]["ErrorMessage"];
            status: components["schemas"]["ErrorStatus"];
        };
        /**
         * @description `service_unavailable` (503): the store (database) cannot be reached.
         * @constant
         */
        ServiceUnavailableErrorCode: "service_unavailable";
        /** @description The body of `503` from every operation: the same three fields as `ErrorBody`, `status` always `503`. */
        ServiceUnavailableErrorBody: {
            code: components["schemas"]["ServiceUnavailableErrorCode"];
            message: components["schemas"]["ErrorMessage"];
            status: components["schemas"]["ErrorStatus"];
        };
    };
    responses: {
        /** @description A header or the body is missing required fields or contains invalid values. */
        CreatePetBadRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description A query parameter or header has an invalid value. */
        ListPetsBadRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The API key is missing or invalid. `WWW-Authenticate` carries the bearer challenge. */
        Unauthorized: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The request body is larger than 100 KiB. */
        PayloadTooLarge: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The request body is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description A request with the same `Idempotency-Key` is still being processed; retry after `Retry-After` seconds. Nothing was created. */
        IdempotencyKeyInUse: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IdempotencyErrorBody"];
            };
        };
        /** @description The `Idempotency-Key` was already used with a different body. Nothing was created. */
        IdempotencyKeyReused: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IdempotencyErrorBody"];
            };
        };
        /** @description The rate limit is exceeded, or the API key is temporarily banned. */
        TooManyRequests: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description An unexpected failure on the service's side. */
        InternalError: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The store cannot be reached; nothing was changed. Retry after `Retry-After` seconds. */
        ServiceUnavailable: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ServiceUnavailableErrorBody"];
            };
        };
        /** @description The list has not changed since the `ETag` sent in `If-None-Match`: no body. */
        NotModified: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                ETag: components["headers"]["ETag"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The animal has not changed since the `ETag` sent in `If-None-Match`: no body. */
        DeprecatedNotModified: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                ETag: components["headers"]["ETag"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The `petId` is not an integer within ±(2^53−1), or a header has an invalid value. */
        DeprecatedBadRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The API key is missing or invalid. `WWW-Authenticate` carries the bearer challenge. */
        DeprecatedUnauthorized: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The requested animal could not be found. */
        DeprecatedNotFound: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The rate limit is exceeded, or the API key is temporarily banned. */
        DeprecatedTooManyRequests: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "Retry-After": components["headers"]["Retry-After"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description An unexpected failure on the service's side. */
        DeprecatedInternalError: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The store cannot be reached. Retry after `Retry-After` seconds. */
        DeprecatedServiceUnavailable: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                Vary: components["headers"]["Vary"];
                "Retry-After": components["headers"]["Retry-After"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ServiceUnavailableErrorBody"];
            };
        };
    };
    parameters: {
        /**
         * @description Maximum number of animals returned (1 to 100). A value that is not a finite integer
         *     in this range (`101`, `1.5`, `Infinity`) gets `400`.
         * @example 20
         */
        Limit: number;
        /**
         * @description Keeps only animals with this status.
         * @example available
         */
        StatusFilter: components["schemas"]["PetStatus"];
        /**
         * @description Opaque position in the list, taken from the `next` link of a previous page. Do not
         *     build or alter it; an invalid cursor gets `400`.
         * @example MTA
         */
        Cursor: string;
        /**
         * @description The identifier of the animal.
         * @example 10
         */
        PetId: number;
        /**
         * @description The `ETag` of a representation you already have, or several separated by commas,
         *     or `*` (RFC 9110 §13.1.2). When one matches the current `ETag` (weak comparison),
         *     the answer is `304 Not Modified` with no body. A malformed value gets `400`.
         * @example "5f3c9a1e0b7d4c2a"
         */
        IfNoneMatch: string;
        /**
         * @description Makes the create safe to retry (draft-ietf-httpapi-idempotency-key-header-07): a
         *     unique key of your choosing, best a random UUID, as a Structured Field String in
         *     double quotes (`"8e03978e-…"`) or, for compatibility, as the bare token; both name
         *     the same key. 1 to 255 printable ASCII characters without space, `"` or `\`. A
         *     retry with the same key and the same body gets the original `201` (same `id`,
         *     `Idempotent-Replayed: true`) and creates nothing; the same key with a different
         *     body gets `422`, and while the first request is still being processed, `409`. Keys
         *     are scoped to your API key and kept for 24 hours; only a request that creates an
         *     animal uses its key up. A malformed key gets `400`.
         * @example "8e03978e-40d5-43e8-bc93-6894a57f9324"
         */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description The limit that applies to the caller in the window described.
         * @example 60
         */
        "X-RateLimit-Limit": number;
        /**
         * @description Requests left in the current window.
         * @example 59
         */
        "X-RateLimit-Remaining": number;
        /**
         * @description Unix timestamp (seconds) at which the window described resets.
         * @example 1795219260
         */
        "X-RateLimit-Reset": number;
        /**
         * @description Both windows of the caller's plan (draft-ietf-httpapi-ratelimit-headers-10), in
         *     this order: `"minute";q=<per minute>;w=60, "day";q=<per day>;w=86400`. `q` is the
         *     quota in requests, `w` the window in seconds.
         * @example "minute";q=60;w=60, "day";q=1000;w=86400
         */
        "RateLimit-Policy": string;
        /**
         * @description What is left of both windows (draft-ietf-httpapi-ratelimit-headers-10), in the order
         *     of `RateLimit-Policy`: `r` requests left, `t` whole seconds until the window resets
         *     (1 to 60 for the minute, 1 to 86400 for the day).
         * @example "minute";r=59;t=30, "day";r=999;t=86370
         */
        RateLimit: string;
        /**
         * @description Identifier of this request, for support. Echoes the caller's `X-Request-Id` when it
         *     is a short token (1 to 64 of `A-Z a-z 0-9 . _ : -`), else one generated by the
         *     service.
         * @example 4f1c2a9e-7b1d-4c55-9a3e-0d4f1e2a3b4c
         */
        "X-Request-Id": string;
        /**
         * @description Whole seconds (delta-seconds, RFC 9110 §10.2.3) to wait before retrying.
         * @example 30
         */
        "Retry-After": number;
        /**
         * @description The bearer challenge (RFC 6750 §3): `error="invalid_token"` is added when the
         *     request sent an `Authorization` header.
         * @example Bearer realm="petstore", error="invalid_token"
         */
        "WWW-Authenticate": "Bearer realm=\"petstore\"" | "Bearer realm=\"petstore\", error=\"invalid_token\"";
        /**
         * @description Strong entity tag of the representation (RFC 9110 §8.8.3); for a page it covers
         *     the body and the `Link` header. Send it back in `If-None-Match`.
         * @example "5f3c9a1e0b7d4c2a"
         */
        ETag: string;
        /**
         * @description Present, with the value `true`, only when this `201` is the replay of an earlier
         *     create with the same `Idempotency-Key`; nothing was created this time.
         * @example true
         */
        "Idempotent-Replayed": "true";
        /**
         * @description CORS: present only when the request's `Origin` is allowed by the server setting
         *     `CORS_ORIGINS`; the request's origin, or `*` when any origin is allowed.
         * @example https://app.example
         */
        "Access-Control-Allow-Origin": string;
        /**
         * @description CORS: present with `Access-Control-Allow-Origin`; every response header this
         *     description documents, so that scripts on the allowed origin can read them.
         * @example Allow, Deprecation, ETag, Idempotent-Replayed, Link, RateLimit, RateLimit-Policy, Retry-After, Sunset, WWW-Authenticate, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id
         */
        "Access-Control-Expose-Headers": "Allow, Deprecation, ETag, Idempotent-Replayed, Link, RateLimit, RateLimit-Policy, Retry-After, Sunset, WWW-Authenticate, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id";
        /**
         * @description CORS: present with `Access-Control-Allow-Origin`; the answer depends on `Origin`.
         * @example Origin
         */
        Vary: "Origin";
        /**
         * @description Present when more animals match: `<…>; rel="next"` (RFC 8288) with a URI reference,
         *     relative to the request, of the next page.
         * @example </v1/pets?limit=20&cursor=MjA>; rel="next"
         */
        NextPageLink: string;
        /**
         * @description RFC 9745: this operation is deprecated, since the Unix time after `@`.
         * @example @1795219200
         */
        Deprecation: "@1795219200";
        /**
         * @description RFC 8594: the operation is removed at this time.
         * @example Thu, 05 Dec 2030 00:00:00 GMT
         */
        Sunset: "Thu, 05 Dec 2030 00:00:00 GMT";
        /**
         * @description The replacement operation (`rel="successor-version"`) and this deprecation's
         *     documentation (`rel="deprecation"`, RFC 9745).
         * @example </v1/pets>; rel="successor-version", </docs#tag/Pets/operation/getPet>; rel="deprecation"; type="text/html"
         */
        DeprecationLink: "</v1/pets>; rel=\"successor-version\", </docs#tag/Pets/operation/getPet>; rel=\"deprecation\"; type=\"text/html\"";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPets: {
        parameters: {
            query?: {
                /**
                 * @description Maximum number of animals returned (1 to 100). A value that is not a finite integer
                 *     in this range (`101`, `1.5`, `Infinity`) gets `400`.
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Keeps only animals with this status.
                 * @example available
                 */
                status?: components["parameters"]["StatusFilter"];
                /**
                 * @description Opaque position in the list, taken from the `next` link of a previous page. Do not
                 *     build or alter it; an invalid cursor gets `400`.
                 * @example MTA
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description The `ETag` of a representation you already have, or several separated by commas,
                 *     or `*` (RFC 9110 §13.1.2). When one matches the current `ETag` (weak comparison),
                 *     the answer is `304 Not Modified` with no body. A malformed value gets `400`.
                 * @example "5f3c9a1e0b7d4c2a"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The list is returned. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    ETag: components["headers"]["ETag"];
                    Link: components["headers"]["NextPageLink"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["ListPetsBadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the create safe to retry (draft-ietf-httpapi-idempotency-key-header-07): a
                 *     unique key of your choosing, best a random UUID, as a Structured Field String in
                 *     double quotes (`"8e03978e-…"`) or, for compatibility, as the bare token; both name
                 *     the same key. 1 to 255 printable ASCII characters without space, `"` or `\`. A
                 *     retry with the same key and the same body gets the original `201` (same `id`,
                 *     `Idempotent-Replayed: true`) and creates nothing; the same key with a different
                 *     body gets `422`, and while the first request is still being processed, `409`. Keys
                 *     are scoped to your API key and kept for 24 hours; only a request that creates an
                 *     animal uses its key up. A malformed key gets `400`.
                 * @example "8e03978e-40d5-43e8-bc93-6894a57f9324"
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPet"];
            };
        };
        responses: {
            /**
             * @description Animal added; the returned object carries the assigned `id`. A replay (same
             *     `Idempotency-Key`, same body) returns the animal the first request added and adds
             *     `Idempotent-Replayed: true`.
             */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["CreatePetBadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `ETag` of a representation you already have, or several separated by commas,
                 *     or `*` (RFC 9110 §13.1.2). When one matches the current `ETag` (weak comparison),
                 *     the answer is `304 Not Modified` with no body. A malformed value gets `400`.
                 * @example "5f3c9a1e0b7d4c2a"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description The identifier of the animal.
                 * @example 10
                 */
                petId: components["parameters"]["PetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The animal exists. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    Vary: components["headers"]["Vary"];
                    ETag: components["headers"]["ETag"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            304: components["responses"]["DeprecatedNotModified"];
            400: components["responses"]["DeprecatedBadRequest"];
            401: components["responses"]["DeprecatedUnauthorized"];
            404: components["responses"]["DeprecatedNotFound"];
            429: components["responses"]["DeprecatedTooManyRequests"];
            500: components["responses"]["DeprecatedInternalError"];
            503: components["responses"]["DeprecatedServiceUnavailable"];
        };
    };
}
