import type { Database, Engine } from "../database";
import { statement } from "../database";

/** The table each engine records its applied migrations in (bff/platform/database.ts applies them). */
const migrationsTable: Record<Engine, string> = {
  sqlite:
    "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT",
  postgres:
    "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)",
};

export const schemaMigrations = {
  ensureTable: (db: Database) => db.exec(migrationsTable[db.engine]),

  /** The names of the migrations applied, in no particular order. */
  names: async (db: Database) =>
    (await statement<{ name: string }, []>(db, "SELECT name FROM schema_migrations").all()).map(
      (row) => row.name,
    ),

  record: (db: Database, name: string, appliedAt: number) =>
    statement(db, "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)").run(name, appliedAt),

  /**
   * PostgreSQL: waits for any other instance migrating the same database, until this
   * transaction ends.
   */
  takeTurn: (db: Database) => statement(db, "SELECT pg_advisory_xact_lock(7261001)").get(),

  /** PostgreSQL: whether the database has the table at all (an empty database has not). */
  hasTable: async (db: Database) =>
    Boolean(
      (
        await statement<{ name: string | null }, []>(
          db,
          "SELECT to_regclass('schema_migrations') AS name",
        ).get()
      )?.name,
    ),
};
