import type { NewPet, Pet } from '@petstore/types';
import type pg from 'pg';
import { createdPetFromRow, PET_COLUMNS, type PetRow } from '../rows.js';
import type { IdempotentCreate } from '../store.js';
import { turnEnd, withClient } from './pooled-connection.js';

/** The most pets one statement inserts; a busier turn starts another group. */
export const MAX_GROUP = 500;

/**
 * Creates inserted in groups: one statement, so one transaction and one commit, for the creates
 * of an event loop's turn and those asked while it waits for a connection, as SQLite's writer
 * thread commits a group (`synchronous=FULL` there, `synchronous_commit` here). Each caller
 * still learns of its pet only after that commit, with its own id, in the order asked. Plain
 * creates and creates with an `Idempotency-Key` form groups of their own.
 *
 * A group PostgreSQL refuses for its data (SQLSTATE class 22 or 23: the whole statement rolled
 * back, nothing written) is sent again one create at a time, so only the create at fault fails.
 * Any other error (a connection lost, the database going away) fails the whole group, as it
 * would a single statement: whether its commit happened is then unknown, and sending again
 * could create a pet twice.
 *
 * @example
 * ```ts
 * const create = groupedCreates(pool);
 * const pet = await create({ name: 'Rex', categoryId: 1 });
 * ```
 */
export function groupedCreates(
  pool: pg.Pool,
  onGroupCommitted?: (size: number) => void,
): (pet: NewPet) => Promise<Pet> {
  const create = grouped(pool, insert, onGroupCommitted);
  return (pet) => create(pet).then(createdPetFromRow);
}

/** A create with an `Idempotency-Key`: the pet, the request, and the key's advisory lock. */
export interface CreateOnce {
  pet: NewPet;
  request: IdempotentCreate;
  lockId: string;
}

/** What `petstore_create_pet_once` answers (bigints come as strings). */
export interface CreateOnceRow {
  outcome: 'in_flight' | 'known' | 'created';
  known_fingerprint: string | null;
  known_body: string | null;
  created_id: string | null;
  created_name: string | null;
  created_category_id: string | null;
  created_status: string | null;
}

/**
 * Creates with an `Idempotency-Key` in groups: one call of `petstore_create_pet_once`
 * (migration 5) per create, all in one statement and its transaction. Each call takes its key's
 * advisory lock, never waiting; the group's commit releases them all. Two creates of one key in
 * one group are one create and its replay (the second call holds the lock already and finds the
 * record the first one made).
 */
export function groupedCreatesOnce(
  pool: pg.Pool,
  onGroupCommitted?: (size: number) => void,
): (create: CreateOnce) => Promise<CreateOnceRow> {
  return grouped(pool, createOnce, onGroupCommitted);
}

/** Items asked together, each sent with the rest of its group; each resolves to its own row. */
function grouped<Item, Row>(
  pool: pg.Pool,
  statement: (client: pg.PoolClient, items: Item[]) => Promise<Row[]>,
  onGroupCommitted: ((size: number) => void) | undefined,
): (item: Item) => Promise<Row> {
  let open: Group<Item, Row> | undefined;
  return (item) =>
    new Promise<Row>((resolve, reject) => {
      if (open === undefined || open.items.length === MAX_GROUP) {
        const group: Group<Item, Row> = { items: [], callers: [] };
        open = group;
        void send(pool, group, statement, onGroupCommitted, () => {
          if (open === group) open = undefined;
        });
      }
      open.items.push(item);
      open.callers.push({ resolve, reject });
    });
}

interface Group<Item, Row> {
  items: Item[];
  callers: { resolve: (row: Row) => void; reject: (error: unknown) => void }[];
}

async function send<Item, Row>(
  pool: pg.Pool,
  { items, callers }: Group<Item, Row>,
  statement: (client: pg.PoolClient, items: Item[]) => Promise<Row[]>,
  onGroupCommitted: ((size: number) => void) | undefined,
  close: () => void,
): Promise<void> {
  try {
    await turnEnd();
    const rows = await withClient(pool, (client) => {
      // Written to the socket within this call: creates asked from now on form a new group.
      close();
      return statement(client, items);
    });
    onGroupCommitted?.(rows.length);
    callers.forEach((caller, index) => {
      const row = rows[index];
      if (row === undefined) caller.reject(new Error('PostgreSQL answered fewer rows than asked.'));
      else caller.resolve(row);
    });
  } catch (error) {
    close();
    if (items.length > 1 && refusedForItsData(error)) {
      // One at a time, in the order asked, as the group would have given them their ids.
      for (const [index, item] of items.entries()) {
        const caller = callers[index];
        try {
          const [row] = await withClient(pool, (client) => statement(client, [item]));
          onGroupCommitted?.(1);
          if (row === undefined) caller?.reject(new Error('PostgreSQL answered no row.'));
          else caller?.resolve(row);
        } catch (alone) {
          caller?.reject(alone);
        }
      }
    } else {
      for (const caller of callers) caller.reject(error);
    }
  }
}

/**
 * Inserts `pets` in one statement; the rows come back in the order of `pets`. The ids are
 * drawn in the order the rows are inserted (`order by n`), so ordering the returned rows by id
 * puts them in that order whatever order RETURNING gives.
 */
async function insert(client: pg.PoolClient, pets: NewPet[]): Promise<PetRow[]> {
  const result = await client.query<PetRow>({
    name: 'pets_create_group',
    text: `with inserted as (
             insert into pets (name, category_id, status)
             select name, category_id, status
             from unnest($1::text[], $2::bigint[], $3::text[])
               with ordinality as pet (name, category_id, status, n)
             order by n
             returning ${PET_COLUMNS})
           select ${PET_COLUMNS} from inserted order by id`,
    values: [
      pets.map((pet) => pet.name),
      pets.map((pet) => pet.categoryId),
      pets.map((pet) => pet.status ?? null),
    ],
  });
  return result.rows;
}

/** Calls `petstore_create_pet_once` for each create, in order, in one statement. */
async function createOnce(client: pg.PoolClient, creates: CreateOnce[]): Promise<CreateOnceRow[]> {
  const result = await client.query<CreateOnceRow>({
    name: 'idempotency_create_once_group',
    text: `select once.*
           from unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[],
                       $6::bigint[], $7::text[], $8::timestamptz[], $9::timestamptz[])
             with ordinality as asked (lock_id, api_key_id, key, fingerprint, name,
                                       category_id, status, at_time, until_time, n)
           cross join lateral petstore_create_pet_once(asked.lock_id, asked.api_key_id,
             asked.key, asked.fingerprint, asked.name, asked.category_id, asked.status,
             asked.at_time, asked.until_time) as once
           order by asked.n`,
    values: [
      creates.map((create) => create.lockId),
      creates.map((create) => create.request.apiKeyId),
      creates.map((create) => create.request.key),
      creates.map((create) => create.request.fingerprint),
      creates.map((create) => create.pet.name),
      creates.map((create) => create.pet.categoryId),
      creates.map((create) => create.pet.status ?? null),
      creates.map((create) => new Date(create.request.now).toISOString()),
      creates.map((create) => new Date(create.request.expiresAt).toISOString()),
    ],
  });
  return result.rows;
}

/** SQLSTATE class 22 (data exception) or 23 (integrity constraint violation). */
function refusedForItsData(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}
