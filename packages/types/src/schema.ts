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
         */
        get: operations["listPets"];
        put?: never;
        /**
         * Add an animal
         * @description Adds an animal to the catalogue. The service assigns its `id` and returns the
         *     stored animal. `name` and `categoryId` are required; an omitted `status` stays
         *     absent (there is no default). Unknown properties, `id` among them, are rejected.
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
         *     `Deprecation`, `Sunset` and `Link` headers announcing the removal.
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
         *     (U+0000–U+001F, U+007F), which no name needs and not every store can keep.
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
         * @description Machine-readable error code:
         *     `invalid_request` (400), `unauthorized` (401), `not_found` (404),
         *     `method_not_allowed` (405), `payload_too_large` (413),
         *     `unsupported_media_type` (415), `rate_limited` (429), `key_banned` (429),
         *     `internal_error` (500).
         * @enum {string}
         */
        ErrorCode: "invalid_request" | "unauthorized" | "not_found" | "method_not_allowed" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "key_banned" | "internal_error";
        /** @description The body of every error response. */
        Error: {
            code: components["schemas"]["ErrorCode"];
            /** @description Human-readable description of the error. */
            message: string;
            /** @description The HTTP status code of the response. */
            status: number;
        };
    };
    responses: {
        /** @description A parameter or the body is missing required fields or contains invalid values. */
        BadRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The API key is missing or invalid. */
        Unauthorized: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is larger than 100 KiB. */
        PayloadTooLarge: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The rate limit is exceeded, or the API key is temporarily banned. */
        TooManyRequests: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An unexpected failure on the service's side. */
        InternalError: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The `petId` is not an integer within ±(2^53−1). */
        DeprecatedBadRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The API key is missing or invalid. */
        DeprecatedUnauthorized: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The requested animal could not be found. */
        DeprecatedNotFound: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The rate limit is exceeded, or the API key is temporarily banned. */
        DeprecatedTooManyRequests: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An unexpected failure on the service's side. */
        DeprecatedInternalError: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["DeprecationLink"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description Maximum number of animals returned (1 to 100).
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
         * @description Identifier of this request, for support. Echoes the caller's `X-Request-Id` when it
         *     is a short token, else one generated by the service.
         * @example 4f1c2a9e-7b1d-4c55-9a3e-0d4f1e2a3b4c
         */
        "X-Request-Id": string;
        /**
         * @description Whole seconds (delta-seconds) to wait before retrying.
         * @example 30
         */
        "Retry-After": number;
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
        DeprecationLink: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPets: {
        parameters: {
            query?: {
                /**
                 * @description Maximum number of animals returned (1 to 100).
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
            header?: never;
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
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Link: components["headers"]["NextPageLink"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createPet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPet"];
            };
        };
        responses: {
            /** @description Animal added; the returned object carries the assigned `id`. */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getPet: {
        parameters: {
            query?: never;
            header?: never;
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
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["DeprecatedBadRequest"];
            401: components["responses"]["DeprecatedUnauthorized"];
            404: components["responses"]["DeprecatedNotFound"];
            429: components["responses"]["DeprecatedTooManyRequests"];
            500: components["responses"]["DeprecatedInternalError"];
        };
    };
}
