import type { Database } from "../database";
import { statement } from "../database";

/** One row of the allow-list's change log, as the cursor rule needs it. */
export type LoggedChange = { version: number; changed_at: number };

/** A row of `access_changes` (filled by the triggers of migration 0018 / 0007). */
export type ChangeRow = LoggedChange & { user_id: number | null; node_tag: string | null };

const wallClock = (db: Database) =>
  db.engine === "postgres"
    ? "(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT"
    : "CAST(unixepoch('subsec') * 1000 AS INTEGER)";

/** The allow-list's change log (DESIGN §8): what agents follow with their cursor. */
export const accessChanges = {
  /**
   * PostgreSQL: when the oldest transaction still open in this database that has written
   * anything began (ms, the server's clock, as the triggers' changed_at), or +Infinity when
   * none is open. Read before the rows, so a transaction found ended here has its row, if
   * it committed, in what is read next. Only this role's sessions show their transaction
   * ids in pg_stat_activity, and only the product writes access (DESIGN §8). SQLite: null,
   * one writer, no gap ever fills later.
   */
  oldestOpenSince: async (db: Database): Promise<number | null> => {
    if (db.engine !== "postgres") return null;
    const row = await statement<{ since: number | string | null }, []>(
      db,
      `SELECT (extract(epoch FROM MIN(xact_start)) * 1000)::BIGINT AS since FROM pg_stat_activity
       WHERE backend_xid IS NOT NULL AND datname = current_database()`,
    ).get();
    return row?.since === null || row?.since === undefined ? Number.POSITIVE_INFINITY : Number(row.since);
  },

  /** The log's first and last versions (null when it is empty). */
  bounds: (db: Database) =>
    statement<{ oldest: number | null; newest: number | null }, []>(
      db,
      // Two subqueries: SQLite reads a lone MIN or MAX from the index end, but scans the
      // whole log for both in one select (17 ms at 200,000 rows, per waiting agent).
      "SELECT (SELECT MIN(version) FROM access_changes) AS oldest, (SELECT MAX(version) FROM access_changes) AS newest",
    ).get(),

  newest: async (db: Database) =>
    (
      await statement<{ newest: number | null }, []>(
        db,
        "SELECT MAX(version) AS newest FROM access_changes",
      ).get()
    )?.newest ?? 0,

  /** Up to `limit` rows after `since`, oldest first. */
  after: (db: Database, since: number, limit: number) =>
    statement<ChangeRow, [number, number]>(
      db,
      "SELECT version, user_id, node_tag, changed_at FROM access_changes WHERE version > ? ORDER BY version LIMIT ?",
    ).all(since, limit),

  /** Up to `limit` versions after `since`, oldest first: what the cursor rule reads. */
  versionsAfter: (db: Database, since: number, limit: number) =>
    statement<LoggedChange, [number, number]>(
      db,
      "SELECT version, changed_at FROM access_changes WHERE version > ? ORDER BY version LIMIT ?",
    ).all(since, limit),

  /**
   * The newest version written before `before` (wall clock), 0 when none. Read from the
   * top of the version index, which holds only the recent rows above it.
   */
  newestBefore: async (db: Database, before: number) =>
    (
      await statement<{ version: number }, [number]>(
        db,
        "SELECT version FROM access_changes WHERE changed_at < ? ORDER BY version DESC LIMIT 1",
      ).get(before)
    )?.version ?? 0,

  /**
   * Everything changed (the demo's test clock moved: every remaining time is new): a row
   * without a user sends every agent a full list.
   */
  everythingChanged: (db: Database) =>
    statement<never, []>(
      db,
      `INSERT INTO access_changes (user_id, node_tag, changed_at) VALUES (NULL, NULL, ${wallClock(db)})`,
    ).run(),

  /**
   * Up to `limit` rows written before `before` (wall clock) go; the newest row always
   * stays, so the versions never start over.
   */
  prune: (db: Database, before: number, limit: number) =>
    statement<never, [number, number]>(
      db,
      `DELETE FROM access_changes WHERE version IN (
         SELECT version FROM access_changes
         WHERE changed_at < ? AND version < (SELECT MAX(version) FROM access_changes)
         ORDER BY version LIMIT ?)`,
    ).run(before, limit),
};
