import type { Database as Connection } from "bun:sqlite";
import type { Database } from "../database";

/**
 * The server's own SQLite file: the settings it is opened with (bff/platform/database.ts
 * says why each), what they turned out to be, and its copy for a backup.
 */
export const sqliteFile = {
  /** Waits for a lock instead of failing at once with SQLITE_BUSY. */
  waitWhenBusy: (connection: Connection) => connection.run("PRAGMA busy_timeout = 5000"),

  /** Throws "database is locked" while another process holds the file. */
  holdAlone(connection: Connection): void {
    connection.run("PRAGMA locking_mode = EXCLUSIVE");
    connection.run("PRAGMA journal_mode = WAL");
  },

  keepEveryCommit(connection: Connection): void {
    connection.run("PRAGMA synchronous = FULL");
    connection.run("PRAGMA foreign_keys = ON");
  },

  /** "exclusive" while this connection holds the file alone. */
  lockingMode: async (db: Database) =>
    (await db.get<{ locking_mode: string }>("PRAGMA locking_mode"))?.locking_mode,

  /**
   * A consistent, compacted copy into `path`. VACUUM INTO takes no bound parameter through
   * exec, so the path is a string literal, its single quotes doubled.
   */
  copyInto: (db: Database, path: string) => db.exec(`VACUUM INTO '${path.replaceAll("'", "''")}'`),
};
