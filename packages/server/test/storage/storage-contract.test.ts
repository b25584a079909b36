import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NewPet, Pet } from '@petstore/types';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { isKeyValidAt } from '../../src/keys/index.js';
import { openStorage } from '../../src/storage/index.js';
import { migratePostgres, postgresMigrations } from '../../src/storage/postgres/index.js';
import { sqliteMigrations } from '../../src/storage/sqlite/index.js';
import type { NewApiKey } from '../../src/domain.js';
import type { IdempotentCreate, KeyRotation, Storage } from '../../src/storage/index.js';
import { createTestClock } from '../../src/testing/index.js';
import {
  createTemporaryPostgresDatabase,
  type TemporaryPostgresDatabase,
} from '../support/temporary-postgres-database.js';

/**
 * One contract, every backend: each adapter must behave exactly alike, so the server and the
 * keys CLI never learn which one they run on. Every test gets a fresh, empty database.
 */
interface Backend {
  name: string;
  /** Whether `revisions().pets` is known (else always undefined). */
  petRevision: boolean;
  /** Creates an empty database; `open` may be called several times on it. */
  prepare(): Promise<PreparedDatabase>;
  /** Creates a database at the schema before key rotation, holding `KEY_BEFORE_ROTATION`. */
  prepareBeforeRotation(): Promise<PreparedDatabase>;
}

/** A key as the schema before rotation stored it (the same SQL for both databases). */
const KEY_BEFORE_ROTATION = `insert into api_keys
  (hash, display_prefix, name, plan, per_minute, per_day, created_at)
  values ('${'a'.repeat(64)}', 'psk_Old1', 'old', 'pro', 300, 10000, '2029-12-31T00:00:00.000Z')`;

interface PreparedDatabase {
  open(clock: Clock): Promise<Storage>;
  destroy(): Promise<void>;
}

// Both open through `openStorage(DATABASE_URL)`, the way the server and the keys CLI do.
const backends: Backend[] = [
  {
    name: 'SQLite',
    petRevision: true,
    async prepare() {
      return (await sqliteDatabase()).prepared;
    },
    async prepareBeforeRotation() {
      const { file, prepared } = await sqliteDatabase();
      const db = new BetterSqlite3(file);
      // The third migration added key rotation.
      for (const sql of sqliteMigrations.slice(0, 2)) db.exec(sql);
      db.pragma('user_version = 2');
      db.exec(KEY_BEFORE_ROTATION);
      db.close();
      return prepared;
    },
  },
  {
    name: 'PostgreSQL',
    petRevision: false,
    async prepare() {
      return postgresDatabase(await createTemporaryPostgresDatabase());
    },
    async prepareBeforeRotation() {
      const database = await createTemporaryPostgresDatabase();
      const pool = new pg.Pool({ connectionString: database.url });
      try {
        // Version 3 added key rotation.
        await migratePostgres(
          pool,
          postgresMigrations.filter(({ version }) => version < 3),
        );
        await pool.query(KEY_BEFORE_ROTATION);
      } finally {
        await pool.end();
      }
      return postgresDatabase(database);
    },
  },
];

async function sqliteDatabase(): Promise<{ file: string; prepared: PreparedDatabase }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'petstore-storage-'));
  const file = path.join(dir, 'petstore.db');
  return {
    file,
    prepared: {
      open: (clock) => openStorage(`file:${file}`, { clock }),
      destroy: () => rm(dir, { recursive: true, force: true }),
    },
  };
}

function postgresDatabase(database: TemporaryPostgresDatabase): PreparedDatabase {
  return {
    open: (clock) => openStorage(database.url, { clock }),
    destroy: () => database.drop(),
  };
}

function newKey(overrides: Partial<NewApiKey> = {}): NewApiKey {
  return {
    hash: 'a'.repeat(64),
    displayPrefix: 'psk_AbC1',
    name: 'ci',
    plan: 'free',
    perMinute: 60,
    perDay: 1000,
    ...overrides,
  };
}

describe.each(backends)('storage contract on $name', (backend) => {
  let database: PreparedDatabase;
  let storage: Storage;
  const opened: Storage[] = [];
  const clock = createTestClock(new Date('2030-01-02T03:04:05.678Z'));

  /** Opens the test's database (again); closed after the test. */
  async function open(): Promise<Storage> {
    const store = await database.open(clock);
    opened.push(store);
    return store;
  }

  async function createAll(pets: NewPet[]): Promise<Pet[]> {
    const created: Pet[] = [];
    for (const pet of pets) created.push(await storage.pets.create(pet));
    return created;
  }

  beforeEach(async () => {
    clock.set(new Date('2030-01-02T03:04:05.678Z'));
    database = await backend.prepare();
    storage = await open();
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await database.destroy();
  });

  describe('pets', () => {
    it('creates a pet with a positive safe-integer id and gets it back unchanged', async () => {
      const created = await storage.pets.create({
        name: 'Rex',
        categoryId: 7,
        status: 'available',
      });

      expect(Number.isSafeInteger(created.id)).toBe(true);
      expect(created.id).toBeGreaterThan(0);
      expect(created).toEqual({ id: created.id, name: 'Rex', categoryId: 7, status: 'available' });
      expect(await storage.pets.get(created.id)).toEqual(created);
    });

    it('keeps an omitted status absent on create, get and list (no default, no null)', async () => {
      const created = await storage.pets.create({ name: 'Nameless status', categoryId: 1 });

      expect(Object.keys(created).sort()).toEqual(['categoryId', 'id', 'name']);
      expect(Object.keys((await storage.pets.get(created.id)) ?? {}).sort()).toEqual([
        'categoryId',
        'id',
        'name',
      ]);
      expect(await storage.pets.list({ limit: 10 })).toEqual([
        { id: created.id, name: 'Nameless status', categoryId: 1 },
      ]);
    });

    it('answers undefined for an id that does not exist', async () => {
      const created = await storage.pets.create({ name: 'Only', categoryId: 1 });

      expect(await storage.pets.get(created.id + 1)).toBeUndefined();
      expect(await storage.pets.get(Number.MAX_SAFE_INTEGER)).toBeUndefined();
    });

    it('stores names and category ids verbatim, up to ±(2^53−1)', async () => {
      const tricky = [
        { name: "Robert'); drop table pets; --", categoryId: Number.MAX_SAFE_INTEGER },
        { name: 'Zoë 🐕 "quoted" \\ back', categoryId: -Number.MAX_SAFE_INTEGER },
        { name: 'x'.repeat(255), categoryId: 0 },
      ];
      const created = await createAll(tricky);

      expect(created.map(({ id: _id, ...rest }) => rest)).toEqual(tricky);
      for (const pet of created) expect(await storage.pets.get(pet.id)).toEqual(pet);
    });

    it('lists pets in ascending id order, at most limit of them', async () => {
      const created = await createAll(
        ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, categoryId: 1 })),
      );
      const ids = created.map((pet) => pet.id);

      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(await storage.pets.list({ limit: 100 })).toEqual(created);
      expect(await storage.pets.list({ limit: 3 })).toEqual(created.slice(0, 3));
      expect(await storage.pets.list({ limit: 1 })).toEqual(created.slice(0, 1));
    });

    it('lists only pets with the requested status, in id order', async () => {
      const created = await createAll([
        { name: 'a', categoryId: 1, status: 'sold' },
        { name: 'b', categoryId: 1, status: 'available' },
        { name: 'c', categoryId: 1 },
        { name: 'd', categoryId: 1, status: 'sold' },
        { name: 'e', categoryId: 1, status: 'pending' },
      ]);
      const [a, b, , d, e] = created;

      expect(await storage.pets.list({ limit: 10, status: 'sold' })).toEqual([a, d]);
      expect(await storage.pets.list({ limit: 10, status: 'available' })).toEqual([b]);
      expect(await storage.pets.list({ limit: 10, status: 'pending' })).toEqual([e]);
      expect(await storage.pets.list({ limit: 1, status: 'sold' })).toEqual([a]);
      expect(await storage.pets.list({ limit: 10, status: undefined })).toEqual(created);
    });

    it('continues after afterId (keyset pagination), with and without a status filter', async () => {
      const created = await createAll([
        { name: 'a', categoryId: 1, status: 'sold' },
        { name: 'b', categoryId: 1 },
        { name: 'c', categoryId: 1, status: 'sold' },
        { name: 'd', categoryId: 1, status: 'sold' },
      ]);
      const [a, b, c, d] = created as [Pet, Pet, Pet, Pet];

      expect(await storage.pets.list({ limit: 2, afterId: a.id })).toEqual([b, c]);
      expect(await storage.pets.list({ limit: 10, afterId: c.id })).toEqual([d]);
      expect(await storage.pets.list({ limit: 1, afterId: a.id, status: 'sold' })).toEqual([c]);
      expect(await storage.pets.list({ limit: 10, afterId: d.id })).toEqual([]);
      expect(await storage.pets.list({ limit: 10, afterId: 0 })).toEqual(created);
    });

    it('pages through every pet exactly once by following the last id', async () => {
      const created = await createAll(
        Array.from({ length: 7 }, (_, i) => ({ name: `p${i}`, categoryId: i })),
      );
      const seen: Pet[] = [];
      let afterId: number | undefined;
      for (;;) {
        const page = await storage.pets.list({ limit: 3, afterId });
        if (page.length === 0) break;
        seen.push(...page);
        afterId = page.at(-1)?.id;
      }

      expect(seen).toEqual(created);
    });

    it('gives 200 concurrent creates 200 distinct ids, all listed', async () => {
      const created = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          storage.pets.create({ name: `pet ${i}`, categoryId: i }),
        ),
      );
      const ids = created.map((pet) => pet.id);

      expect(new Set(ids).size).toBe(200);
      expect(ids.every(Number.isSafeInteger)).toBe(true);
      const sorted = [...ids].sort((x, y) => x - y);
      const firstPage = await storage.pets.list({ limit: 100 });
      const secondPage = await storage.pets.list({ limit: 100, afterId: firstPage.at(-1)?.id });
      expect([...firstPage, ...secondPage].map((pet) => pet.id)).toEqual(sorted);
      expect(await storage.pets.list({ limit: 100, afterId: secondPage.at(-1)?.id })).toEqual([]);
      expect(new Map([...firstPage, ...secondPage].map((pet) => [pet.id, pet]))).toEqual(
        new Map(created.map((pet) => [pet.id, pet])),
      );
    });

    // A revision that stays the same promises that no pet changed: the routes answer from
    // memory on that promise. SQLite keeps it; PostgreSQL cannot cheaply, and has none.
    it('moves its pet revision with every pet write, from this store or another (or has none)', async () => {
      const revisions = [storage.revisions().pets];
      const note = () => revisions.push(storage.revisions().pets);
      note(); // nothing changed
      await storage.pets.create({ name: 'here', categoryId: 1 });
      note();
      const other = await open();
      await other.pets.create({ name: 'there', categoryId: 1 });
      note();
      await other.pets.createIdempotent(
        { name: 'once', categoryId: 1 },
        { apiKeyId: 1, key: 'k', fingerprint: 'f', now: 0, expiresAt: Date.now() + 60_000 },
      );
      note();
      await storage.pets.list({ limit: 10 });
      note(); // a read changes nothing
      if (backend.petRevision) {
        const [start, same, afterCreate, afterOther, afterIdempotent, afterRead] = revisions;
        expect(start).toBeTypeOf('number');
        expect(same).toBe(start);
        expect(new Set([start, afterCreate, afterOther, afterIdempotent]).size).toBe(4);
        expect(afterRead).toBe(afterIdempotent);
      } else {
        expect(revisions.every((revision) => revision === undefined)).toBe(true);
      }
    });
  });

  describe('idempotent creates', () => {
    const request = (overrides: Partial<IdempotentCreate> = {}): IdempotentCreate => ({
      apiKeyId: 1,
      key: '8e03978e-40d5-43e8-bc93-6894a57f9324',
      fingerprint: 'body-a',
      now: clock.now(),
      expiresAt: clock.now() + 86_400_000,
      ...overrides,
    });
    const rex = { name: 'Rex', categoryId: 1, status: 'available' } as const;

    it('creates once, then replays the same pet for the same key and body', async () => {
      const first = await storage.pets.createIdempotent(rex, request());
      expect(first.kind).toBe('created');
      const created = (first as { pet: Pet }).pet;
      expect(await storage.pets.createIdempotent(rex, request())).toEqual({
        kind: 'replayed',
        pet: created,
      });
      expect(await storage.pets.list({ limit: 10 })).toEqual([created]);
    });

    it('replays a pet without a status exactly, with no status field', async () => {
      const tom = { name: 'Tom "the cat" \\ Ünal', categoryId: 2 };
      const first = await storage.pets.createIdempotent(tom, request());
      const replay = await storage.pets.createIdempotent(tom, request());
      expect(replay.kind).toBe('replayed');
      const { pet } = replay as { pet: Pet };
      expect(pet).toStrictEqual((first as { pet: Pet }).pet);
      expect(JSON.stringify(pet)).toBe(JSON.stringify({ id: pet.id, ...tom }));
    });

    it('refuses the same key with another body, creating nothing', async () => {
      await storage.pets.createIdempotent(rex, request());
      const other = await storage.pets.createIdempotent(
        { name: 'Tom', categoryId: 2 },
        request({ fingerprint: 'body-b' }),
      );
      expect(other).toEqual({ kind: 'reused' });
      expect(await storage.pets.list({ limit: 10 })).toHaveLength(1);
    });

    it('takes no id for a replay or a refusal: the next pet’s id follows the first’s', async () => {
      const first = await storage.pets.createIdempotent(rex, request());
      expect((await storage.pets.createIdempotent(rex, request())).kind).toBe('replayed');
      const other = request({ fingerprint: 'body-b' });
      expect((await storage.pets.createIdempotent(rex, other)).kind).toBe('reused');
      const next = await storage.pets.create(rex);
      expect(next.id).toBe((first as { pet: Pet }).pet.id + 1);
    });

    it('scopes keys to their API key', async () => {
      await storage.pets.createIdempotent(rex, request({ apiKeyId: 1 }));
      const second = await storage.pets.createIdempotent(rex, request({ apiKeyId: 2 }));
      expect(second.kind).toBe('created');
      expect(await storage.pets.list({ limit: 10 })).toHaveLength(2);
    });

    it('forgets a key once it has expired: the same request creates anew', async () => {
      const first = await storage.pets.createIdempotent(rex, request());
      const later = clock.now() + 86_400_001;
      const again = await storage.pets.createIdempotent(
        rex,
        request({ now: later, expiresAt: later + 86_400_000 }),
      );
      expect(again.kind).toBe('created');
      expect((again as { pet: Pet }).pet.id).not.toBe((first as { pet: Pet }).pet.id);
      // The renewed record replays the new pet until it expires in turn.
      expect(
        await storage.pets.createIdempotent(
          rex,
          request({ now: later + 1000, expiresAt: later + 86_401_000 }),
        ),
      ).toEqual({ kind: 'replayed', pet: (again as { pet: Pet }).pet });
    });

    it('keeps records across a reopen, and purges only the expired ones', async () => {
      await storage.pets.createIdempotent(
        rex,
        request({ key: 'short', expiresAt: clock.now() + 1000 }),
      );
      await storage.pets.createIdempotent(rex, request({ key: 'long' }));
      const reopened = await open();
      expect((await reopened.pets.createIdempotent(rex, request({ key: 'long' }))).kind).toBe(
        'replayed',
      );
      expect(await reopened.pets.purgeExpiredIdempotencyKeys(clock.now() + 2000)).toBe(1);
      expect((await reopened.pets.createIdempotent(rex, request({ key: 'long' }))).kind).toBe(
        'replayed',
      );
    });

    it('gives concurrent creates with one key exactly one pet', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () => storage.pets.createIdempotent(rex, request())),
      );
      const kinds = outcomes.map((outcome) => outcome.kind);
      expect(kinds.filter((kind) => kind === 'created')).toHaveLength(1);
      expect(kinds.every((kind) => ['created', 'replayed', 'in_flight'].includes(kind))).toBe(true);
      expect(await storage.pets.list({ limit: 20 })).toHaveLength(1);
    });
  });

  describe('api keys', () => {
    it('creates a key record with an id, the clock’s ISO time, and no revocation', async () => {
      const record = await storage.keys.create(
        newKey({ plan: 'pro', perMinute: 300, perDay: 10000 }),
      );

      expect(Number.isSafeInteger(record.id)).toBe(true);
      expect(record).toEqual({
        id: record.id,
        name: 'ci',
        plan: 'pro',
        perMinute: 300,
        perDay: 10000,
        displayPrefix: 'psk_AbC1',
        createdAt: '2030-01-02T03:04:05.678Z',
        revokedAt: null,
        expiresAt: null,
        replacesId: null,
      });
    });

    it('keeps a null name and an enterprise key’s custom numbers', async () => {
      const record = await storage.keys.create(
        newKey({ name: null, plan: 'enterprise', perMinute: 5, perDay: 9_000_000_000 }),
      );

      expect(record).toMatchObject({
        name: null,
        plan: 'enterprise',
        perMinute: 5,
        perDay: 9_000_000_000,
      });
      expect(await storage.keys.findActiveByHash(newKey().hash)).toEqual(record);
    });

    it('finds an active key by its hash and nothing for an unknown hash', async () => {
      const record = await storage.keys.create(newKey({ hash: 'b'.repeat(64) }));

      expect(await storage.keys.findActiveByHash('b'.repeat(64))).toEqual(record);
      expect(await storage.keys.findActiveByHash('c'.repeat(64))).toBeUndefined();
    });

    it('refuses a second key with the same hash', async () => {
      await storage.keys.create(newKey({ hash: 'd'.repeat(64) }));

      await expect(storage.keys.create(newKey({ hash: 'd'.repeat(64) }))).rejects.toThrow();
      expect((await storage.keys.list()).length).toBe(1);
    });

    it('revokes an active key once, at the clock’s time, after which it is not found', async () => {
      const record = await storage.keys.create(newKey());
      clock.set(new Date('2030-02-03T04:05:06.789Z'));

      expect(await storage.keys.revoke(record.id)).toBe(true);
      expect(await storage.keys.findActiveByHash(newKey().hash)).toBeUndefined();
      expect(await storage.keys.list()).toEqual([
        { ...record, revokedAt: '2030-02-03T04:05:06.789Z' },
      ]);

      clock.set(new Date('2030-03-04T00:00:00.000Z'));
      expect(await storage.keys.revoke(record.id)).toBe(false);
      expect((await storage.keys.list())[0]?.revokedAt).toBe('2030-02-03T04:05:06.789Z');
    });

    it('answers false when revoking an id that does not exist', async () => {
      expect(await storage.keys.revoke(12345)).toBe(false);
    });

    it('lists every key by id, revoked ones included, and counts only active ones', async () => {
      expect(await storage.keys.list()).toEqual([]);
      expect(await storage.keys.countActive()).toBe(0);

      const first = await storage.keys.create(newKey({ hash: '1'.repeat(64), name: 'one' }));
      const second = await storage.keys.create(newKey({ hash: '2'.repeat(64), name: 'two' }));
      const third = await storage.keys.create(newKey({ hash: '3'.repeat(64), name: 'three' }));
      expect(await storage.keys.countActive()).toBe(3);

      await storage.keys.revoke(second.id);

      expect(await storage.keys.countActive()).toBe(2);
      expect((await storage.keys.list()).map((key) => [key.id, key.name, key.revokedAt])).toEqual([
        [first.id, 'one', null],
        [second.id, 'two', '2030-01-02T03:04:05.678Z'],
        [third.id, 'three', null],
      ]);
    });

    // A cache of key lookups trusts a key while the keys' revision stays the same: it must move
    // with every key write, here (at once) or in another process (PostgreSQL: once notified).
    // A pet write may not move it: SQLite reads its change counter for both and, when that
    // moved, the keys' own counter again.
    it('moves its key revision with every key write, from this store or another, and not with pet writes', async () => {
      const other = await open();
      const keys = () => storage.revisions().keys;
      await vi.waitFor(() => expect(keys()).toBeTypeOf('number')); // PostgreSQL: listening
      const start = keys();
      expect(keys()).toBe(start);

      const created = await other.keys.create(newKey());
      await vi.waitFor(() => expect(keys()).not.toBe(start));
      const afterOther = keys();
      await other.pets.create({ name: 'there', categoryId: 1 });
      await storage.pets.create({ name: 'here', categoryId: 1 });
      expect(keys()).toBe(afterOther);

      await storage.keys.revoke(created.id);
      const afterRevoke = keys();
      expect(afterRevoke).not.toBe(afterOther);
      const toRotate = await storage.keys.create(newKey({ hash: 'e'.repeat(64) }));
      expect(keys()).not.toBe(afterRevoke);
      const beforeRotate = keys();
      await storage.keys.rotate(toRotate.id, { hash: 'f'.repeat(64), displayPrefix: 'psk_R' }, 0);
      expect(keys()).not.toBe(beforeRotate);
    });
  });

  describe('api key rotation', () => {
    const hour = 3_600_000;
    const replacement = (n: number) => ({ hash: `${n}`.repeat(64), displayPrefix: `psk_New${n}` });
    /** Rotates `id` to replacement `n` with `graceMs`, expecting it to happen. */
    async function rotate(id: number, graceMs: number, n = 9, store = storage) {
      const rotation = await store.keys.rotate(id, replacement(n), graceMs);
      if (rotation.kind !== 'rotated') throw new Error(`expected a rotation, got ${rotation.kind}`);
      return rotation;
    }

    it('stores a new key with the old one’s plan, quota and name; the old one expires after the grace', async () => {
      const old = await storage.keys.create(
        newKey({ name: 'partner', plan: 'enterprise', perMinute: 5, perDay: 9_000_000_000 }),
      );
      clock.advance(1000);

      const rotation = await rotate(old.id, hour);

      expect(rotation).toEqual({
        kind: 'rotated',
        record: {
          id: rotation.record.id,
          name: 'partner',
          plan: 'enterprise',
          perMinute: 5,
          perDay: 9_000_000_000,
          displayPrefix: 'psk_New9',
          createdAt: '2030-01-02T03:04:06.678Z',
          revokedAt: null,
          expiresAt: null,
          replacesId: old.id,
        },
        replaced: { ...old, expiresAt: '2030-01-02T04:04:06.678Z' },
      });
      expect(rotation.record.id).not.toBe(old.id);
      expect(await storage.keys.list()).toEqual([rotation.replaced, rotation.record]);
    });

    it.each([
      ['at the rotation', 0, true],
      ['a millisecond before the grace ends', hour - 1, true],
      ['when the grace ends', hour, false],
      ['after the grace', 2 * hour, false],
    ])(
      'finds the old key %s only while the clock is inside the grace',
      async (_, later, active) => {
        const old = await storage.keys.create(newKey());
        const { record, replaced } = await rotate(old.id, hour);

        clock.advance(later);

        const found = await storage.keys.findActiveByHash(newKey().hash);
        expect(found).toEqual(active ? replaced : undefined);
        expect(isKeyValidAt(replaced, clock.now())).toBe(active);
        expect(await storage.keys.findActiveByHash(replacement(9).hash)).toEqual(record);
        expect(await storage.keys.countActive()).toBe(active ? 2 : 1);
      },
    );

    it('revokes the old key at once with no grace', async () => {
      const old = await storage.keys.create(newKey());

      const { record, replaced } = await rotate(old.id, 0);

      expect(replaced).toEqual({ ...old, revokedAt: '2030-01-02T03:04:05.678Z' });
      expect(await storage.keys.findActiveByHash(newKey().hash)).toBeUndefined();
      expect(await storage.keys.findActiveByHash(replacement(9).hash)).toEqual(record);
    });

    it.each<[string, (id: number) => Promise<unknown>, KeyRotation['kind']]>([
      ['an unknown key', async () => {}, 'unknown'],
      ['a revoked key', (id) => storage.keys.revoke(id), 'revoked'],
      ['a key rotated with no grace', (id) => rotate(id, 0), 'revoked'],
      ['a key in its grace period', (id) => rotate(id, hour), 'replaced'],
      [
        'a key whose grace period is over',
        async (id) => {
          await rotate(id, hour);
          clock.advance(hour);
        },
        'replaced',
      ],
    ])('refuses to rotate %s, writing nothing', async (_, arrange, kind) => {
      const old = await storage.keys.create(newKey());
      await arrange(old.id);
      const id = kind === 'unknown' ? old.id + 100 : old.id;
      const before = await storage.keys.list();

      const rotation = await storage.keys.rotate(id, replacement(7), hour);

      expect(rotation).toEqual(
        kind === 'unknown' ? { kind } : { kind, key: before.find((key) => key.id === id) },
      );
      expect(await storage.keys.list()).toEqual(before);
      expect(await storage.keys.findActiveByHash(replacement(7).hash)).toBeUndefined();
    });

    it('revokes a key in its grace period at once; an expired key is not revoked', async () => {
      const first = await storage.keys.create(newKey());
      const second = await storage.keys.create(newKey({ hash: 'f'.repeat(64) }));
      await rotate(first.id, hour, 1);
      await rotate(second.id, hour, 2);
      clock.advance(1000);

      expect(await storage.keys.revoke(first.id)).toBe(true);
      expect(await storage.keys.findActiveByHash(newKey().hash)).toBeUndefined();
      expect((await storage.keys.list())[0]).toMatchObject({
        revokedAt: '2030-01-02T03:04:06.678Z',
        expiresAt: '2030-01-02T04:04:05.678Z',
      });

      clock.advance(hour);
      expect(await storage.keys.revoke(second.id)).toBe(false);
      expect((await storage.keys.list())[1]?.revokedAt).toBeNull();
    });

    it('lets exactly one of concurrent rotations of a key win, across stores', async () => {
      const old = await storage.keys.create(newKey());
      const other = await open();

      const outcomes = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) =>
          (n % 2 ? storage : other).keys.rotate(old.id, replacement(n), hour),
        ),
      );

      const kinds = outcomes.map((outcome) => outcome.kind).sort();
      expect(kinds).toEqual([
        'replaced',
        'replaced',
        'replaced',
        'replaced',
        'replaced',
        'rotated',
      ]);
      expect(await storage.keys.list()).toHaveLength(2);
    });

    it('keeps the keys of a database from before rotation working, and rotates them', async () => {
      const upgraded = await backend.prepareBeforeRotation();
      const store = await upgraded.open(clock);
      try {
        const old = await store.keys.findActiveByHash('a'.repeat(64));
        expect(old).toMatchObject({ name: 'old', plan: 'pro', revokedAt: null, expiresAt: null });
        expect(old?.replacesId).toBeNull();

        const rotation = await rotate(old?.id ?? 0, hour, 9, store);

        expect(rotation.record).toMatchObject({ name: 'old', plan: 'pro', replacesId: old?.id });
      } finally {
        await store.close();
        await upgraded.destroy();
      }
    });

    it.each([-1, 0.5, Number.NaN])('refuses a grace of %s ms, writing nothing', async (graceMs) => {
      const old = await storage.keys.create(newKey());

      await expect(storage.keys.rotate(old.id, replacement(9), graceMs)).rejects.toThrow(
        RangeError,
      );
      expect(await storage.keys.list()).toEqual([old]);
    });
  });

  describe('lifecycle', () => {
    it('runs migrations idempotently: reopening the same database keeps every row', async () => {
      const pet = await storage.pets.create({ name: 'Kept', categoryId: 3, status: 'pending' });
      const key = await storage.keys.create(newKey());
      await storage.close();

      const reopened = await open();
      const again = await open();

      expect(await reopened.pets.list({ limit: 10 })).toEqual([pet]);
      expect(await again.keys.list()).toEqual([key]);
      const next = await again.pets.create({ name: 'Next', categoryId: 3 });
      expect(next.id).toBeGreaterThan(pet.id);
    });

    it('lets several stores open one fresh database at the same time', async () => {
      const fresh = await backend.prepare();
      try {
        const stores = await Promise.all([1, 2, 3].map(() => fresh.open(clock)));
        try {
          const created = await stores[0]?.pets.create({ name: 'Shared', categoryId: 1 });
          for (const store of stores) {
            expect(await store.pets.list({ limit: 10 })).toEqual([created]);
          }
        } finally {
          await Promise.all(stores.map((store) => store.close()));
        }
      } finally {
        await fresh.destroy();
      }
    });

    it('pings while open and refuses work once closed', async () => {
      await expect(storage.ping()).resolves.toBeUndefined();

      await storage.close();

      await expect(storage.ping()).rejects.toThrow();
      await expect(storage.pets.list({ limit: 1 })).rejects.toThrow();
    });

    it('closes idempotently', async () => {
      await storage.close();
      await expect(storage.close()).resolves.toBeUndefined();
    });
  });
});
