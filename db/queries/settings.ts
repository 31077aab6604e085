import type { Database } from "../database";
import { statement } from "../database";

/** Values kept once per database, by key: shared secrets and the demo's test clock. */
export const settings = {
  value: (db: Database, key: string) =>
    statement<{ value: string }, [string]>(db, "SELECT value FROM settings WHERE key = ?").get(key),

  /** Stores the value unless the key has one: the first writer wins. */
  insertIfAbsent: (db: Database, key: string, value: string) =>
    statement(db, "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING").run(
      key,
      value,
    ),

  /** Sets the key's value, whatever it was. */
  put: (db: Database, key: string, value: string) =>
    statement(
      db,
      "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ).run(key, value),

  clockOffset: (db: Database) =>
    statement<{ value: string }, []>(db, "SELECT value FROM settings WHERE key = 'clock_offset_ms'").get(),

  setClockOffset: (db: Database, value: string) =>
    statement(
      db,
      "INSERT INTO settings (key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ).run(value),
};
