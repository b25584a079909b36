import type { Database } from 'better-sqlite3';

/**
 * The SQLite schema, one migration per entry. Never edit an applied entry: append a new one.
 * `PRAGMA user_version` records how many have run, so running them again is a no-op.
 */
export const sqliteMigrations: readonly string[] = [
  `
  CREATE TABLE pets (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL,
    category_id INTEGER NOT NULL,
    status      TEXT    CHECK (status IN ('available', 'pending', 'sold'))
  );
  -- Serves "WHERE status = ? AND id > ? ORDER BY id" without a sort (listPets with a filter).
  CREATE INDEX pets_status_id ON pets (status, id);

  CREATE TABLE api_keys (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    hash           TEXT    NOT NULL UNIQUE,
    display_prefix TEXT    NOT NULL,
    name           TEXT,
    plan           TEXT    NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
    per_minute     INTEGER NOT NULL CHECK (per_minute >= 1),
    per_day        INTEGER NOT NULL CHECK (per_day >= 1),
    created_at     TEXT    NOT NULL,
    revoked_at     TEXT
  );
  `,
  `
  -- Idempotency-Key records of createPet: scoped to the API key, kept until expires_at (Unix ms).
  CREATE TABLE idempotency_keys (
    api_key_id      INTEGER NOT NULL,
    idempotency_key TEXT    NOT NULL,
    fingerprint     TEXT    NOT NULL,
    pet_id          INTEGER NOT NULL,
    response_status INTEGER NOT NULL,
    response_body   TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,
    PRIMARY KEY (api_key_id, idempotency_key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
  `,
  `
  -- keys rotate: when a replaced key's grace period ends (compared with the clock; revoked_at
  -- stays the act of revoking, effective at once), and the key a key replaced (unique: a key
  -- is replaced at most once).
  ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
  ALTER TABLE api_keys ADD COLUMN replaces_id INTEGER REFERENCES api_keys (id);
  CREATE UNIQUE INDEX api_keys_replaces_id ON api_keys (replaces_id);
  `,
  `
  -- Readiness: one row the write probe rewrites, so /readyz knows the disk still takes writes.
  CREATE TABLE health_probe (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at INTEGER NOT NULL
  );
  `,
  `
  -- A counter every change of api_keys moves (from any process: the keys CLI included), so a
  -- server's cache of key lookups knows at once when to forget what it holds.
  CREATE TABLE api_keys_revision (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
  );
  INSERT INTO api_keys_revision (id, n) VALUES (1, 0);
  CREATE TRIGGER api_keys_inserted AFTER INSERT ON api_keys
    BEGIN UPDATE api_keys_revision SET n = n + 1; END;
  CREATE TRIGGER api_keys_updated AFTER UPDATE ON api_keys
    BEGIN UPDATE api_keys_revision SET n = n + 1; END;
  CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys
    BEGIN UPDATE api_keys_revision SET n = n + 1; END;
  `,
  `
  -- Idempotency records in a rowid table, in the order they are made, found through a unique
  -- index on (api_key_id, idempotency_key). Clients pick keys at random (UUIDs): as the table's
  -- own key (WITHOUT ROWID), every ~300-byte record went into a random page of the whole table,
  -- which grew more costly to write as records accumulated; now a record is appended and only
  -- its ~50-byte index entry goes to a random place. The records are kept as they were.
  CREATE TABLE idempotency_keys_in_order (
    api_key_id      INTEGER NOT NULL,
    idempotency_key TEXT    NOT NULL,
    fingerprint     TEXT    NOT NULL,
    pet_id          INTEGER NOT NULL,
    response_status INTEGER NOT NULL,
    response_body   TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL
  );
  INSERT INTO idempotency_keys_in_order
    SELECT api_key_id, idempotency_key, fingerprint, pet_id, response_status, response_body,
           created_at, expires_at
    FROM idempotency_keys ORDER BY created_at;
  DROP TABLE idempotency_keys;
  ALTER TABLE idempotency_keys_in_order RENAME TO idempotency_keys;
  CREATE UNIQUE INDEX idempotency_keys_key ON idempotency_keys (api_key_id, idempotency_key);
  CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
  `,
];

/** Applies the migrations not yet applied, each in its own transaction. Idempotent. */
export function migrateSqlite(db: Database): void {
  const applied = db.pragma('user_version', { simple: true }) as number;
  for (let version = applied; version < sqliteMigrations.length; version++) {
    db.transaction(() => {
      db.exec(sqliteMigrations[version] as string);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}
