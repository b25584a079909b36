import { METHODS } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import type { Pet } from '@petstore/types';
import type { TestServer } from '../../../src/testing/index.js';
import { validator } from '../../support/contract.js';
import { walkPages } from '../../support/requests.js';
import {
  deref,
  errorBodySchemas,
  errorStatuses,
  matches,
  type Operation,
  operationAt,
  operations,
  pointerOf,
  validFor,
} from './contract.js';
import type { Mutation } from './mutations.js';
import { bodyBytes, type DraftRequest, headerOf, toWire } from './request.js';
import type { WireResponse } from './wire.js';

/**
 * The oracle: what must hold for every answer, checked independently of the server's own
 * validation, from the contract alone; and the model of the store (what was accepted) that
 * the store and the listing must agree with.
 */

/** One generated case: a request of the contract, the mutations that spoiled it, the result. */
export interface FuzzCase {
  /** The operation the request was generated from. */
  operation: string;
  mutations: readonly Mutation[];
  request: DraftRequest;
}

/** A failed property: thrown, so fast-check shrinks the case and reports it. */
export class PropertyFailure extends Error {
  override name = 'PropertyFailure';
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new PropertyFailure(message);
}

const errorStatusSet = new Set([...errorStatuses.values()].flatMap((statuses) => [...statuses]));
const errorBodyValidators = errorBodySchemas.map((pointer) => validator(pointer));

/** The path as Express routes it: no scheme and host (absolute form), no trailing slash, any case. */
const routedPath = (request: DraftRequest) =>
  request.path
    .replace(/^[a-z]+:\/\/[^/]*/i, '')
    .replace(/(.)\/$/, '$1')
    .toLowerCase();

/**
 * The operation a request reaches: by its template, or by a spelling Express also routes there
 * (another letter case, a trailing slash, the absolute form), which may be answered as the
 * operation or with 404 (like every error of the table, always allowed). `HEAD` reaches the
 * `GET` of its path: the description's *HTTP semantics* answer it for every `GET` route, with
 * the same status and headers and no body.
 */
function operationOf(request: DraftRequest): Operation | undefined {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return (
    operationAt(method, request.path) ??
    operations.find(
      (candidate) =>
        candidate.method === method &&
        matches({ ...candidate, template: candidate.template.toLowerCase() }, routedPath(request)),
    )
  );
}

/** Headers a documented response object requires (name → pointer of the header object). */
function headersOf(responsePointer: string): Map<string, string> {
  const headers = (deref(responsePointer).node.headers ?? {}) as Record<string, unknown>;
  return new Map(
    Object.keys(headers).map((name) => [
      name.toLowerCase(),
      deref(`${responsePointer}${pointerOf('headers', name)}`).pointer,
    ]),
  );
}

/** Headers every documented response carries (the generic errors carry these too). */
const commonHeaders: Map<string, string> = (() => {
  const all = operations.flatMap((operation) => [...operation.responses.values()].map(headersOf));
  return new Map([...all[0]!].filter(([name]) => all.every((headers) => headers.has(name))));
})();

/** The largest request head the server reads (its HTTP_MAX_HEADER_BYTES default). */
const MAX_HEAD_BYTES = 16 * 1024;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Whether Node's HTTP parser refuses the request before any route sees it: a method it does
 * not know, a request-target with bytes outside visible ASCII, a header name that is not a
 * token or a value with control characters, or a head over the size limit. The contract
 * documents those answers (400, 431) as the HTTP layer's: the Error body, `X-Request-Id` and the
 * rate-limit headers, but none of an operation's own headers, since no operation was reached.
 */
/** A control character other than horizontal tab, which a header value may not hold. */
const hasControlCharacter = (value: string) =>
  [...value].some((char) => {
    const code = char.charCodeAt(0);
    return (code < 0x20 && code !== 0x09) || code === 0x7f;
  });

function refusedByHttpLayer(request: DraftRequest): boolean {
  const { method, target, headers } = toWire(request);
  const head = `${method} ${target}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}`;
  return (
    !METHODS.includes(method) ||
    /[^\x21-\x7E]/.test(target) ||
    headers.some(([name, value]) => !TOKEN.test(name) || hasControlCharacter(value)) ||
    Buffer.byteLength(head, 'utf8') > MAX_HEAD_BYTES
  );
}

function checkHeaders(response: WireResponse, headers: Map<string, string>): void {
  for (const [name, pointer] of headers) {
    const header = deref(pointer).node;
    const value = response.headers[name];
    if (value === undefined) {
      check(header.required !== true, `the required header ${name} is missing`);
      continue;
    }
    const schema = deref(`${pointer}/schema`);
    const typed = schema.node.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
    check(
      validator(schema.pointer)(typed),
      `header ${name}: ${JSON.stringify(value)} is not valid`,
    );
  }
}

function json(response: WireResponse): unknown {
  check(
    /^application\/json\b/i.test(response.headers['content-type'] ?? ''),
    `answered ${response.status} with content type ${response.headers['content-type'] ?? '(none)'}, not JSON: ${JSON.stringify(response.body.toString('utf8').slice(0, 200))}`,
  );
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new PropertyFailure(`answered ${response.status} with a body that is not JSON`);
  }
}

/**
 * The JSON value of the body as a JSON server must read it (UTF-8, a leading BOM ignored as
 * RFC 8259 §8.1 allows), when the request declares plain `application/json` (no other
 * charset, no Content-Encoding); undefined when it is not such a JSON text.
 */
export function sentJson(request: DraftRequest): { value: unknown } | undefined {
  if (request.body === undefined) return undefined;
  const [media = '', ...parameters] = (headerOf(request, 'content-type') ?? '').split(';');
  const charset = parameters
    .map((parameter) => /^\s*charset\s*=\s*"?([^"]*)"?\s*$/i.exec(parameter)?.[1])
    .find((value) => value !== undefined);
  const encoding = headerOf(request, 'content-encoding');
  if (media.trim().toLowerCase() !== 'application/json') return undefined;
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') return undefined;
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return undefined;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bodyBytes(request.body));
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * Properties of one answer: no 5xx; a success only for an operation that documents it, with
 * its documented body and headers; every error the Error body, with `status` equal to the HTTP
 * status and a code documented for it; a 400 never calls well-formed JSON malformed; an
 * unmutated request of the contract succeeds.
 */
export function checkAnswer({ request, mutations }: FuzzCase, response: WireResponse): void {
  const { status } = response;
  check(status < 500, `answered ${status}: ${response.body.toString('utf8').slice(0, 300)}`);
  const reached = operationOf(request);
  const documented = reached?.responses.get(status);
  const hasBody = request.method !== 'HEAD';
  const bodySchema = (response: string) => {
    const content = deref(response).node.content as Record<string, unknown> | undefined;
    const mediaType = content && Object.keys(content)[0];
    return mediaType && deref(`${response}${pointerOf('content', mediaType, 'schema')}`).pointer;
  };

  if (status < 400) {
    check(
      reached && documented,
      `answered ${status}, which the contract does not document for ${request.method} ${request.path}`,
    );
    const schema = bodySchema(documented);
    if (hasBody && schema) {
      const isValid = validator(schema);
      check(
        isValid(json(response)),
        `the ${status} body breaks the contract: ${JSON.stringify(isValid.errors)}`,
      );
    }
  } else {
    check(
      errorStatusSet.has(status),
      `answered ${status}, a status the contract does not document`,
    );
    if (hasBody) {
      const body = json(response) as { code?: string; status?: number; message?: string };
      const schema = documented && bodySchema(documented);
      check(
        schema ? validator(schema)(body) : errorBodyValidators.some((isValid) => isValid(body)),
        `the ${status} body is not the documented error body: ${JSON.stringify(body)}`,
      );
      check(body.status === status, `Error body status ${body.status} on an HTTP ${status}`);
      check(
        errorStatuses.get(body.code!)?.has(status),
        `code ${body.code} is documented for ${[...(errorStatuses.get(body.code!) ?? [])]}, answered with ${status}`,
      );
      check(
        !(status === 400 && sentJson(request) && /not well-formed JSON/i.test(body.message!)),
        `a well-formed JSON body was answered: ${body.message}`,
      );
    }
  }
  checkHeaders(
    response,
    documented && !refusedByHttpLayer(request) ? headersOf(documented) : commonHeaders,
  );

  if (mutations.length === 0) {
    // Unmutated, it is a valid request. Only what the store holds may refuse it: an id nobody
    // has (404), an Idempotency-Key used with another body (422); the model checks those.
    check(
      status < 400 || ((status === 404 || status === 422) && documented),
      `the unmutated request was refused with ${status}: ${response.body.toString('utf8').slice(0, 300)}`,
    );
  }
}

/** The server still answers its health check, and no request polluted `Object.prototype`. */
export async function checkStillUp(server: TestServer): Promise<void> {
  const health = await fetch(`${server.url}/healthz`).catch((error: Error) => error);
  check(
    !(health instanceof Error) && health.status === 200,
    `the server stopped answering /healthz: ${String(health)}`,
  );
  check(
    Object.getOwnPropertyNames(Object.prototype).length === prototypeSize,
    'Object.prototype was polluted',
  );
}
const prototypeSize = Object.getOwnPropertyNames(Object.prototype).length;

/** The operations the model needs, found by their shape in the contract. */
const createPet = operations.find((op) => op.method === 'POST' && op.responses.has(201) && op.body);
const listPets = operations.find(
  (op) => op.method === 'GET' && op.template === createPet?.template,
);
const getPet = operations.find(
  (op) => op.method === 'GET' && op.template.startsWith(`${createPet?.template}/{`),
);
if (!createPet || !listPets || !getPet) throw new Error('fuzz: no create, list and get operations');
const isValidNewPet = validFor(createPet.body!.schema);
const statusFilter = (() => {
  const status = listPets.parameters.find((parameter) => deref(parameter.schema).node.enum);
  return { name: status!.name, values: deref(status!.schema).node.enum as string[] };
})();
/** createPet's Idempotency-Key header (*Retrying a create safely*), when the contract has one. */
const idempotencyKey = createPet.parameters.find(
  (parameter) => parameter.in === 'header' && /^idempotency-key$/i.test(parameter.name),
);

const same = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);
const show = (value: unknown) => JSON.stringify(value);
/** A JSON value as JSON means it (so `-0` is `0`, and key order does not matter to `same`). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/**
 * The Idempotency-Key a create carries, as the server reads it: repeated headers joined by
 * `, ` (as Node joins them), the quoted and bare spellings naming the same key; `key` is
 * undefined when the value is malformed.
 */
function idempotencyKeyOf(request: DraftRequest): { sent: string; key?: string } | undefined {
  if (!idempotencyKey) return undefined;
  const values = request.headers
    .filter(([name]) => name.toLowerCase() === idempotencyKey.name.toLowerCase())
    .map(([, value]) => value);
  if (values.length === 0) return undefined;
  const sent = values.join(', ');
  return validFor(idempotencyKey.schema)(sent)
    ? { sent, key: sent.replace(/^"(.*)"$/, '$1') }
    : { sent };
}

/** The pet id a getPet path names, when it is a plain decimal integer. */
function petIdOf(request: DraftRequest): number | undefined {
  const segment = routedPath(request).split('/').at(-1) ?? '';
  return /^-?(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : undefined;
}

/**
 * What the store must hold: exactly the pets whose creation was accepted (not replays), each
 * as it was sent, and which Idempotency-Key created which. Ids only grow, so "nothing
 * changed" is "no pet after the highest id seen".
 */
export class StoreModel {
  private readonly pets = new Map<number, Pet>();
  private readonly keys = new Map<string, { body: unknown; pet: Pet }>();
  /** Pets stored by a case that failed (fast-check goes on, shrinking it): not checked by later cases. */
  private readonly orphans = new Set<number>();
  private highestId = 0;
  /** False while a case runs, and after one that failed. */
  private settled = false;

  constructor(
    private readonly server: TestServer,
    private readonly key: string,
  ) {}

  /** How many creates were accepted. */
  get size(): number {
    return this.pets.size;
  }

  /**
   * Before a case. After one that failed, moves past every pet stored meanwhile, which the
   * model may never have seen, so that each case sees only its own effect.
   */
  async begin(): Promise<void> {
    while (!this.settled) {
      const pets = await this.server.storage.pets.list({ afterId: this.highestId, limit: 100 });
      for (const pet of pets) if (!this.pets.has(pet.id)) this.orphans.add(pet.id);
      this.highestId = pets.at(-1)?.id ?? this.highestId;
      this.settled = pets.length === 0;
    }
    this.settled = false;
  }

  /**
   * After a case: a create changed the store as *Retrying a create safely* says (one new pet,
   * exactly as sent, or a replay that adds none); anything else changed nothing; and what
   * getPet and listPets answered agrees with the model.
   */
  async check({ request }: FuzzCase, response: WireResponse): Promise<void> {
    const added = await this.server.storage.pets.list({ afterId: this.highestId, limit: 2 });
    this.highestId = Math.max(this.highestId, ...added.map((pet) => pet.id));
    // Unchecked until a create proves one of them is exactly what it accepted.
    for (const pet of added) this.orphans.add(pet.id);
    const operation = operationOf(request);
    const created =
      operation === createPet ? await this.checkCreate(request, response, added) : false;
    if (!created) {
      check(added.length === 0, `answered ${response.status}, yet the store gained ${show(added)}`);
    }
    if (response.status === 200 && request.method === 'GET') {
      const body = JSON.parse(response.body.toString('utf8')) as unknown;
      if (operation === listPets) for (const pet of body as Pet[]) this.expectStored(pet);
      if (operation === getPet) this.expectStored(body as Pet);
    }
    // Only the template's own spelling: another one may get 404 for the path (see operationOf).
    const spelledAsTemplate = operationAt('GET', request.path) === getPet;
    if (response.status === 404 && operation === getPet && spelledAsTemplate) {
      const id = petIdOf(request);
      check(id === undefined || !this.pets.has(id), `getPet answered 404 for stored pet ${id}`);
    }
    this.settled = true;
  }

  private expectStored(pet: Pet): void {
    if (this.orphans.has(pet.id)) return;
    const expected = this.pets.get(pet.id);
    check(same(pet, expected), `answered ${show(pet)} where ${show(expected)} was accepted`);
  }

  /** Checks a create's effect; true when it stored a new pet. */
  private async checkCreate(
    request: DraftRequest,
    response: WireResponse,
    added: Pet[],
  ): Promise<boolean> {
    const idempotency = idempotencyKeyOf(request);
    const first = idempotency?.key === undefined ? undefined : this.keys.get(idempotency.key);
    const sent = sentJson(request);
    if (response.status === 409) {
      throw new PropertyFailure('answered 409, yet no other create was in flight');
    }
    if (response.status === 422) {
      check(
        first && sent && !same(first.body, asJson(sent.value)),
        `answered 422 for Idempotency-Key ${idempotency?.sent}, not used before with another body`,
      );
    }
    if (response.status !== 201) return false;

    const answered = JSON.parse(response.body.toString('utf8')) as Pet;
    check(
      sent,
      `accepted a body that is not UTF-8 JSON declared as application/json, as ${show(answered)}`,
    );
    const body = asJson(sent.value);
    check(isValidNewPet(sent.value), `accepted a body the contract refuses, as ${show(answered)}`);
    check(
      !idempotency || idempotency.key !== undefined,
      `accepted a malformed Idempotency-Key ${show(idempotency?.sent)}`,
    );
    if (response.headers['idempotent-replayed'] === 'true') {
      check(first, `replayed a create for Idempotency-Key ${idempotency?.sent}, never used`);
      check(same(first.body, body), `replayed ${show(first.body)} for ${show(body)}`);
      check(
        same(answered, first.pet),
        `the replay answered ${show(answered)}, not ${show(first.pet)}`,
      );
      check(added.length === 0, `a replay stored ${show(added)}`);
      return false;
    }
    const expected = { id: answered.id, ...(body as object) } as Pet;
    this.pets.set(answered.id, expected);
    if (idempotency?.key !== undefined && !first) {
      this.keys.set(idempotency.key, { body, pet: expected });
    }
    check(
      !first,
      `created a second pet with Idempotency-Key ${idempotency?.sent}: ${show(answered)}, first ${show(first?.pet)}`,
    );
    check(same(answered, expected), `sent ${show(sent.value)}, the 201 answered ${show(answered)}`);
    check(same(added, [expected]), `sent ${show(sent.value)}, the store gained ${show(added)}`);
    const read = await fetch(
      `${this.server.url}${getPet!.template.replace(/\{.+\}/, String(answered.id))}`,
      { headers: { Authorization: `Bearer ${this.key}` } },
    );
    const readBack = read.status === 200 ? await read.json() : read.status;
    check(same(readBack, expected), `sent ${show(sent.value)}, getPet read back ${show(readBack)}`);
    this.orphans.delete(answered.id);
    return true;
  }

  /** The listing, walked page by page through its Link headers, is exactly the accepted creates, filtered or not. */
  async checkListing(): Promise<void> {
    const all = [...this.pets.values()].sort((a, b) => a.id - b.id);
    const walks = [
      { query: 'limit=100', expected: all },
      ...statusFilter.values.map((value) => ({
        query: `limit=7&${statusFilter.name}=${value}`,
        expected: all.filter((pet) => pet.status === value),
      })),
    ];
    for (const { query, expected } of walks) {
      const { pets } = await walkPages(this.server, this.key, `${listPets!.template}?${query}`);
      check(
        pets.length === expected.length,
        `${query}: listed ${pets.length} pets, ${expected.length} were accepted`,
      );
      const wrong = pets.findIndex((pet, index) => !same(pet, expected[index]));
      check(
        wrong < 0,
        `${query}: listed ${show(pets[wrong])} where ${show(expected[wrong])} was sent`,
      );
    }
  }
}
