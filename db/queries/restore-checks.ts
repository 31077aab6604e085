import type { Database as Connection } from "bun:sqlite";
import type { Database } from "../database";
import { statement } from "../database";

/** What `npm run restore` (scripts/restore.ts) asks of a backup and of the database it replaces. */

/** A SQLite backup, opened as a file of its own before it takes the database's place. */
export const sqliteBackupCopy = {
  /** "ok", or what SQLite found damaged. */
  quickCheck: (copy: Connection) =>
    copy.query<{ quick_check: string }, []>("PRAGMA quick_check").get()?.quick_check,

  hasMigrationsTable: (copy: Connection) =>
    Boolean(
      copy.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get(),
    ),

  migrationNames: (copy: Connection) =>
    copy
      .query<{ name: string }, []>("SELECT name FROM schema_migrations ORDER BY name")
      .all()
      .map((row) => row.name),
};

export const restoreTarget = {
  /**
   * PostgreSQL: connections of running servers and operator CLIs to this database (they
   * connect as the postgres.js client does), this one aside.
   */
  otherClientConnections: async (db: Database) =>
    (
      await statement<{ count: number }, []>(
        db,
        "SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = 'postgres.js'",
      ).get()
    )?.count ?? 0,

  /** Rows in one of the product's tables (a fixed name, written into the text). */
  rowCount: async (db: Database, table: "users" | "payments") =>
    Number(
      (await statement<{ count: number }, []>(db, `SELECT count(*) AS count FROM ${table}`).get())?.count ??
        0,
    ),
};
