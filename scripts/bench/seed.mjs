// Writes the data set (dataset.mjs) straight into our store's `pets` table with one SQL
// statement: 1,000,000 pets take seconds, where creating them through the API would take
// minutes. The schema must exist already (database.mjs migrates it first).
import { STATUSES } from './dataset.mjs';
import { serverRequire } from './paths.mjs';

/** Pets 1…count into a SQLite file, as petAt(id) describes them. */
export function seedSqlite(file, count) {
  const Database = serverRequire('better-sqlite3');
  const db = new Database(file);
  try {
    // Explicit ids also move AUTOINCREMENT's sqlite_sequence, so creates continue at count + 1.
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO pets (id, name, category_id, status)
       SELECT i, 'Pet ' || i, i % 7 + 1, CASE i % 3 WHEN 0 THEN ? WHEN 1 THEN ? ELSE ? END FROM n`,
    ).run(count, ...STATUSES);
  } finally {
    db.close(); // checkpoints the WAL into the file
  }
}

/** Pets 1…count into a PostgreSQL database, as petAt(id) describes them. */
export async function seedPostgres(url, count) {
  const pg = serverRequire('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `insert into pets (id, name, category_id, status)
       select i, 'Pet ' || i, i % 7 + 1, case i % 3 when 0 then $2 when 1 then $3 else $4 end
       from generate_series(1, $1::bigint) as i`,
      [count, ...STATUSES],
    );
    // Creates continue at count + 1; statistics and the visibility map as autovacuum would
    // leave them, so the measurement does not depend on when autovacuum runs.
    await client.query(`select setval(pg_get_serial_sequence('pets', 'id'), $1)`, [count]);
    await client.query('vacuum analyze pets');
  } finally {
    await client.end();
  }
}
