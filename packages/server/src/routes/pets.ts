import type { NewPet, PetStatus, RequestBody, ResponseBody } from '@petstore/types';
import { type Request, type Response, Router } from 'express';
import { ApiError } from '../errors/index.js';
import type { Storage } from '../storage/index.js';
import { decodeCursor, encodeCursor } from './cursor.js';

/** The default page size of `listPets` (the contract's `limit` default). */
export const DEFAULT_PAGE_SIZE = 20;

/**
 * The response of each operation, typed from the contract: `res.json` accepts only the
 * documented body, so a handler returning a field the spec lacks does not compile.
 */
export type ListPetsResponse = Response<ResponseBody<'listPets', 200>>;
export type CreatePetResponse = Response<ResponseBody<'createPet', 201>>;
export type GetPetResponse = Response<ResponseBody<'getPet', 200>>;

/**
 * The validator checks the contract's ±(2^53−1) bounds, but guard again: a number beyond them
 * has already been rounded by JSON.parse or Number(), and must never reach the store.
 */
function requireSafeInteger(field: string, value: number): number {
  if (!Number.isSafeInteger(value)) {
    throw new ApiError(
      'invalid_request',
      `${field} must be an integer within ±9007199254740991 (2^53−1), written in decimal.`,
    );
  }
  return value;
}

/**
 * A path segment as an integer, written plainly (`-12`, `0`, `42`). The validator coerces with
 * JavaScript's Number(), which also reads `0x10`, `1e3`, `01` and ` ` as numbers; those are not
 * identifiers, so they come out NaN here and get 400.
 */
function parseIntegerLiteral(text: string): number {
  return /^(0|-?[1-9][0-9]*)$/.test(text) ? Number(text) : Number.NaN;
}

/** The three operations of the contract, under `/v1`. Requests reach them already validated. */
export function petRoutes(storage: Storage): Router {
  const router = Router();

  // listPets: a plain array; `Link: <…>; rel="next"` (RFC 8288 §3) when more pets match.
  router.get('/v1/pets', async (req: Request, res: ListPetsResponse) => {
    const query = req.query as Record<string, string | undefined>;
    const limit = query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit);
    const status = query.status as PetStatus | undefined;
    let afterId: number | undefined;
    if (query.cursor !== undefined) {
      afterId = decodeCursor(query.cursor);
      if (afterId === undefined) {
        throw new ApiError(
          'invalid_request',
          'request/query/cursor is not a cursor this service issued: follow the Link header of the previous page.',
        );
      }
    }
    // One more than asked tells whether a next page exists, without counting.
    const rows = await storage.pets.list({ limit: limit + 1, status, afterId });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    if (rows.length > limit && last !== undefined) {
      const next = new URLSearchParams({ limit: String(limit) });
      if (status !== undefined) next.set('status', status);
      next.set('cursor', encodeCursor(last.id));
      res.setHeader('Link', `</v1/pets?${next}>; rel="next"`);
    }
    res.status(200).json(page);
  });

  // createPet: the store assigns the id; an omitted status stays absent.
  router.post('/v1/pets', async (req: Request, res: CreatePetResponse) => {
    const body = req.body as RequestBody<'createPet'>;
    const draft: NewPet = {
      name: body.name,
      categoryId: requireSafeInteger('request/body/categoryId', body.categoryId),
      ...(body.status === undefined ? {} : { status: body.status }),
    };
    const pet = await storage.pets.create(draft);
    res.status(201).json(pet);
  });

  // getPet (deprecated; its headers are set by the deprecation middleware).
  router.get('/v1/pets/:petId', async (req: Request<{ petId: string }>, res: GetPetResponse) => {
    const id = requireSafeInteger('request/params/petId', parseIntegerLiteral(req.params.petId));
    const pet = await storage.pets.get(id);
    if (pet === undefined) throw new ApiError('not_found', `No pet with id ${id}.`);
    res.status(200).json(pet);
  });

  return router;
}
