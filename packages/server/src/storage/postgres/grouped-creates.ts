import type { NewPet, Pet } from '@petstore/types';
import type pg from 'pg';
import { createdPetFromRow, PET_COLUMNS, type PetRow } from '../rows.js';
import { turnEnd, withClient } from './pooled-connection.js';

/** The most pets one statement inserts; a busier turn starts another group. */
export const MAX_GROUP = 500;

/**
 * Plain creates inserted in groups: one statement, so one transaction and one commit, for the
 * creates of an event loop's turn and those asked while it waits for a connection, as SQLite's
 * writer thread commits a group (`synchronous=FULL` there, `synchronous_commit` here). Each
 * caller still learns of its pet only after that commit, with its own id, in the order asked.
 *
 * A group PostgreSQL refuses for its data (SQLSTATE class 22 or 23: the whole statement rolled
 * back, nothing written) is inserted again one pet at a time, so only the pet at fault fails.
 * Any other error (a connection lost, the database going away) fails the whole group, as it
 * would a single insert: whether its commit happened is then unknown, and inserting again
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
  let open: Group | undefined;
  return (pet) =>
    new Promise<Pet>((resolve, reject) => {
      if (open === undefined || open.pets.length === MAX_GROUP) {
        const group: Group = { pets: [], callers: [] };
        open = group;
        void send(pool, group, onGroupCommitted, () => {
          if (open === group) open = undefined;
        });
      }
      open.pets.push(pet);
      open.callers.push({ resolve, reject });
    });
}

interface Group {
  pets: NewPet[];
  callers: { resolve: (pet: Pet) => void; reject: (error: unknown) => void }[];
}

async function send(
  pool: pg.Pool,
  group: Group,
  onGroupCommitted: ((size: number) => void) | undefined,
  close: () => void,
): Promise<void> {
  const { pets, callers } = group;
  try {
    await turnEnd();
    const rows = await withClient(pool, (client) => {
      // Written to the socket within this call: creates asked from now on form a new group.
      close();
      return insert(client, pets);
    });
    onGroupCommitted?.(rows.length);
    callers.forEach((caller, index) => {
      const row = rows[index];
      settle(caller, () => {
        if (row === undefined) throw new Error('PostgreSQL returned fewer rows than it inserted.');
        return createdPetFromRow(row);
      });
    });
  } catch (error) {
    close();
    if (pets.length > 1 && refusedForItsData(error)) {
      // One at a time, in the order asked, as the group would have given them their ids.
      for (const [index, pet] of pets.entries()) {
        try {
          const [row] = await withClient(pool, (client) => insert(client, [pet]));
          onGroupCommitted?.(1);
          settle(callers[index], () => createdPetFromRow(row as PetRow));
        } catch (alone) {
          callers[index]?.reject(alone);
        }
      }
    } else {
      for (const caller of callers) caller.reject(error);
    }
  }
}

function settle(caller: Group['callers'][number] | undefined, pet: () => Pet): void {
  if (caller === undefined) return;
  try {
    caller.resolve(pet());
  } catch (error) {
    caller.reject(error);
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

/** SQLSTATE class 22 (data exception) or 23 (integrity constraint violation). */
function refusedForItsData(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}
