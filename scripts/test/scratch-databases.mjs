// Which of the benchmark's scratch PostgreSQL databases still exist, for the tests that check a
// run dropped them (next to TEST_DATABASE_URL, as scripts/bench/database.mjs makes them).
import { serverRequire } from '../bench/paths.mjs';

/** The names among `names` that are databases on the test server now. */
export async function existingDatabases(names) {
  const pg = serverRequire('pg');
  const client = new pg.Client({
    connectionString:
      process.env.TEST_DATABASE_URL ?? 'postgres://petstore:petstore@127.0.0.1:5432/petstore_test',
  });
  await client.connect();
  try {
    const { rows } = await client.query('select datname from pg_database where datname = any($1)', [
      names,
    ]);
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}
