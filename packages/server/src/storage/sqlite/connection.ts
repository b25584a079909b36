import BetterSqlite3, { type Database } from 'better-sqlite3';

/**
 * A connection to the store's file as every part of the server uses it (the reading connection
 * and the writer thread's alike): WAL, so reads go on during a commit; `synchronous = FULL`, so
 * an acknowledged write survives a power loss; a wait for another process's lock (the keys CLI
 * may write while the server runs) instead of failing; foreign keys enforced.
 */
export function openConnection(file: string): Database {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}
