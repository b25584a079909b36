import type { NewPet, Pet, PetStatus, RequestBody } from '@petstore/types';
import type { Request, Response } from 'express';
import { ApiError } from '../errors/index.js';
import { gatherHeader, sendJson as sendJsonAnswer } from '../http/index.js';
import type { Clock } from '../clock.js';
import { fingerprintOf, idempotencyKeyOf, InFlightKeys } from '../idempotency/index.js';
import type { Logger } from '../logger/index.js';
import type { Storage } from '../storage/index.js';
import { pathParamsOf, type ServablePetCheck } from '../validation/index.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { answerIfNotModified, entityTag } from './entity-tag.js';
import type { OperationHandlers, OperationResponse } from './operations.js';
import {
  BuiltFromResult,
  type Representation,
  RepresentationCache,
} from './representation-cache.js';

/** The default page size of `listPets` (the contract's `limit` default). */
export const DEFAULT_PAGE_SIZE = 20;
/** The largest page (the contract's `limit` maximum). */
export const MAX_PAGE_SIZE = 100;

export type ListPetsResponse = OperationResponse<'listPets'>;
export type CreatePetResponse = OperationResponse<'createPet'>;
export type GetPetResponse = OperationResponse<'getPet'>;

/** 409: the first request with this key is still being processed. */
const keyInUse = () => new ApiError('idempotency_key_in_use', undefined, { 'Retry-After': '1' });

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
 * An integer parameter as written in a path or query, plainly (`-12`, `0`, `42`). The validator
 * coerces with JavaScript's Number(), which also reads `0x10`, `1e3`, `01`, ` `, `Infinity` and
 * `1e400` as numbers; those are not integers as the contract means them, so they come out NaN
 * here and get 400.
 */
function parseIntegerLiteral(text: string): number {
  return /^(0|-?[1-9][0-9]{0,15})$/.test(text) ? Number(text) : Number.NaN;
}

/** `limit`: a whole number from 1 to 100, written plainly; absent, the default. */
function parseLimit(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PAGE_SIZE;
  const limit = parseIntegerLiteral(text);
  if (!(limit >= 1 && limit <= MAX_PAGE_SIZE)) {
    throw new ApiError(
      'invalid_request',
      `request/query/limit must be a whole number from 1 to ${MAX_PAGE_SIZE}, written in decimal.`,
    );
  }
  return limit;
}

export interface PetRoutesOptions {
  storage: Storage;
  /** Whether responses are validated (then they must go through `res.json`, which it hooks). */
  validateResponses: boolean;
  /** The request time of idempotency records. */
  clock: Clock;
  /** How long an `Idempotency-Key` is kept after its create. */
  idempotencyKeyTtlSeconds: number;
  /** Whether a stored pet may be served (the contract's Pet schema). */
  servable: ServablePetCheck;
  logger: Logger;
}

/**
 * The three operations of the contract, by operationId (`dispatchOperations` calls them).
 * Requests reach them authenticated and validated.
 */
export function petOperations({
  storage,
  validateResponses,
  clock,
  idempotencyKeyTtlSeconds,
  servable,
  logger,
}: PetRoutesOptions): OperationHandlers {
  const inFlight = new InFlightKeys();
  /** A JSON answer; through Express's `res.json` when responses are validated (it hooks that). */
  const sendJson = <T>(res: Response<T>, status: number, body: NoInfer<T>, text?: string) =>
    sendJsonAnswer(res, status, body, { text, viaExpress: validateResponses });
  const refuse = (pet: unknown) =>
    logger.warn({ pet }, 'a stored pet does not match the contract and is not served');

  /**
   * Up to `limit + 1` servable pets, from `rows`: the store's first answer, the `limit + 1` rows
   * after the cursor (one more than a page tells whether a next page exists, without counting).
   * Rows that cannot be served are skipped; the store is asked again past them, so a page is
   * never short because of them.
   */
  async function servablePets(
    rows: Pet[],
    limit: number,
    status: PetStatus | undefined,
  ): Promise<Pet[]> {
    const found: Pet[] = [];
    let batch = rows;
    let wanted = limit + 1;
    for (;;) {
      for (const pet of batch) {
        if (servable(pet)) found.push(pet);
        else refuse(pet);
      }
      const last = batch.at(-1)?.id;
      // The end of the table, enough pets, or an id past the safe range (ids are in order, so
      // nothing servable can follow it): stop.
      if (batch.length < wanted || found.length > limit || !Number.isSafeInteger(last))
        return found;
      wanted = limit + 1 - found.length;
      batch = await storage.pets.list({ limit: wanted, status, afterId: last });
    }
  }

  /** A page as sent: the pets, their JSON and ETag, and the `Link` to the next page if any. */
  async function readPage(
    limit: number,
    status: PetStatus | undefined,
    afterId: number | undefined,
  ): Promise<Representation<Pet[]>> {
    const rows = await storage.pets.list({ limit: limit + 1, status, afterId });
    return pagesBuilt.of(rows, () => pageFrom(rows, limit, status));
  }

  async function pageFrom(
    rows: Pet[],
    limit: number,
    status: PetStatus | undefined,
  ): Promise<Representation<Pet[]>> {
    const pets = await servablePets(rows, limit, status);
    const body = pets.slice(0, limit);
    const last = body.at(-1);
    let link: string | undefined;
    if (pets.length > limit && last !== undefined) {
      const next = new URLSearchParams({ limit: String(limit) });
      if (status !== undefined) next.set('status', status);
      next.set('cursor', encodeCursor(last.id));
      link = `</v1/pets?${next}>; rel="next"`;
    }
    const text = JSON.stringify(body);
    return { body, text, etag: entityTag(text, link), link };
  }

  // Pages and pets answered again from memory while no pet changed (representation-cache.ts).
  const pages = new RepresentationCache<Pet[]>();
  const pets = new RepresentationCache<Pet>();
  // One answer per store result, which requests may share (representation-cache.ts).
  const pagesBuilt = new BuiltFromResult<Pet[], Promise<Representation<Pet[]>>>();
  const petsBuilt = new BuiltFromResult<Pet, Representation<Pet>>();

  // listPets: a plain array; `Link: <…>; rel="next"` (RFC 8288 §3) when more pets match;
  // an ETag over both (If-None-Match → 304).
  async function listPets(req: Request, res: ListPetsResponse): Promise<void> {
    const query = req.query as Record<string, string | undefined>;
    const limit = parseLimit(query.limit);
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
    // Read when the key was checked, before the store: what is read after is at least that recent.
    const revision = res.locals.revisions?.pets;
    const key = `${limit} ${status ?? ''} ${afterId ?? 0}`;
    let page = pages.get(key, revision);
    if (page === undefined) {
      page = await readPage(limit, status, afterId);
      pages.set(key, revision, page);
    }
    if (page.link !== undefined) gatherHeader(res, 'Link', page.link);
    if (answerIfNotModified(req, res, page.etag)) return;
    sendJson(res, 200, page.body, page.text);
  }

  /**
   * createPet with an `Idempotency-Key`: the first request creates the pet and records the key
   * in one transaction; a retry with the same body replays that 201 (`Idempotent-Replayed`),
   * with another body gets 422, and while the first is still being processed, 409.
   */
  async function createOnce(
    res: CreatePetResponse,
    draft: NewPet,
    apiKeyId: number,
    key: string,
  ): Promise<void> {
    if (!inFlight.enter(apiKeyId, key)) throw keyInUse();
    try {
      const now = clock.now();
      const outcome = await storage.pets.createIdempotent(draft, {
        apiKeyId,
        key,
        fingerprint: fingerprintOf(draft),
        now,
        expiresAt: now + idempotencyKeyTtlSeconds * 1000,
      });
      switch (outcome.kind) {
        case 'created':
          sendJson(res, 201, outcome.pet);
          return;
        case 'replayed':
          gatherHeader(res, 'Idempotent-Replayed', 'true');
          sendJson(res, 201, outcome.pet);
          return;
        case 'reused':
          throw new ApiError('idempotency_key_reused');
        case 'in_flight':
          throw keyInUse();
      }
    } finally {
      inFlight.leave(apiKeyId, key);
    }
  }

  // createPet: the store assigns the id; an omitted status stays absent.
  async function createPet(req: Request, res: CreatePetResponse): Promise<void> {
    const body = req.body as RequestBody<'createPet'>;
    const draft: NewPet = {
      name: body.name,
      categoryId: requireSafeInteger('request/body/categoryId', body.categoryId),
      ...(body.status === undefined ? {} : { status: body.status }),
    };
    const key = idempotencyKeyOf(req.headers['idempotency-key']);
    const { caller } = res.locals;
    if (key !== undefined && caller.kind === 'key') {
      return createOnce(res, draft, caller.key.id, key);
    }
    const pet = await storage.pets.create(draft);
    sendJson(res, 201, pet);
  }

  // getPet (deprecated; its headers are set by the deprecation middleware).
  async function getPet(req: Request, res: GetPetResponse): Promise<void> {
    const { petId = '' } = pathParamsOf(req);
    const id = requireSafeInteger('request/params/petId', parseIntegerLiteral(petId));
    const revision = res.locals.revisions?.pets;
    const key = String(id);
    let found = pets.get(key, revision);
    if (found === undefined) {
      const pet = await storage.pets.get(id);
      if (pet === undefined) throw new ApiError('not_found', `No pet with id ${id}.`);
      found = petsBuilt.of(pet, () => {
        if (!servable(pet)) {
          refuse(pet);
          throw new ApiError('internal_error');
        }
        const text = JSON.stringify(pet);
        return { body: pet, text, etag: entityTag(text) };
      });
      pets.set(key, revision, found);
    }
    if (answerIfNotModified(req, res, found.etag)) return;
    sendJson(res, 200, found.body, found.text);
  }

  return { listPets, createPet, getPet };
}
