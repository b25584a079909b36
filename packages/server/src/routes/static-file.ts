import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';
import Negotiator from 'negotiator';
import { ApiError } from '../errors/index.js';
import { answerIfNotModified, entityTag } from './entity-tag.js';

/** The content codings offered besides the file itself, best first. */
const CODINGS = ['br', 'gzip'] as const;
type Coding = (typeof CODINGS)[number];
const OFFERED = [...CODINGS, 'identity'];

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Each coding at a high setting, since a file is compressed once: brotli at quality 9 (the
 * 2.6 MB docs page in about 150 ms, 12 % smaller than the quality 4 of a per-response
 * compressor; quality 11 takes seconds), gzip at level 9. Both run on libuv's thread pool.
 */
const encoders: Record<Coding, (content: Buffer) => Promise<Buffer>> = {
  br: (content) =>
    brotliAsync(content, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
  gzip: (content) => gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
};

export interface StaticFileOptions {
  /** The built file; read on first use (the docs may be built after the server starts). */
  file: string;
  /** Its media type, for `Content-Type`. */
  type: string;
  /** The 404's detail while the file does not exist. */
  missing: string;
  /** `Cache-Control: public, max-age=…`: how long a browser may use it without asking. */
  maxAgeSeconds: number;
}

/**
 * A GET handler for a built text file that does not change while the server runs (the bundled
 * description, the docs page). It is read once, and compressed once per coding, on the first
 * request that asks for that coding; every later answer sends the same bytes. Compressing per
 * response cost about 48 ms of CPU per `/docs` request, which let about 21 requests a second
 * of anyone, unauthenticated, hold a core.
 *
 * - The coding follows `Accept-Encoding` (q-values honoured; brotli, then gzip, then the file
 *   itself on a tie; the file itself when nothing offered is acceptable), with
 *   `Vary: Accept-Encoding`.
 * - Each representation has its own strong ETag (RFC 9110 §8.8.3: a strong validator changes
 *   with the content coding): the file's hash, suffixed `-br` or `-gzip` when compressed.
 *   `If-None-Match` with it → 304.
 */
export function staticFile({ file, type, missing, maxAgeSeconds }: StaticFileOptions) {
  let loaded:
    | { content: Buffer; hash: string; encoded: Partial<Record<Coding, Promise<Buffer>>> }
    | undefined;
  const load = () => {
    if (loaded !== undefined) return loaded;
    let content: Buffer;
    try {
      content = readFileSync(file);
    } catch {
      throw new ApiError('not_found', missing);
    }
    loaded = { content, hash: entityTag(content.toString('utf8')).slice(1, -1), encoded: {} };
    return loaded;
  };

  return async (req: Request, res: Response): Promise<void> => {
    const { content, hash, encoded } = load();
    const [best] = new Negotiator(req).encodings(OFFERED, { preferred: OFFERED });
    const coding = CODINGS.find((offered) => offered === best);
    res.setHeader('Cache-Control', `public, max-age=${maxAgeSeconds}`);
    res.vary('Accept-Encoding');
    if (answerIfNotModified(req, res, coding ? `"${hash}-${coding}"` : `"${hash}"`)) return;
    let body = content;
    if (coding) {
      // Requests arriving while it is compressed wait for the same promise.
      body = await (encoded[coding] ??= encoders[coding](content));
      res.setHeader('Content-Encoding', coding);
    }
    res.type(type);
    res.setHeader('Content-Length', body.length);
    res.end(body);
  };
}
