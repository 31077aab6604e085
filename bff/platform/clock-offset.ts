import type { Database } from "bun:sqlite";
import { statement } from "../../db/statements";

/** The demo test clock's offset survives restarts (a crash test restarts mid-run). */
export function loadClockOffset(database: Database): number {
  const row = statement<{ value: string }, []>(
    database,
    "SELECT value FROM settings WHERE key = 'clock_offset_ms'",
  ).get();
  return row ? Number(row.value) || 0 : 0;
}

export function saveClockOffset(database: Database, offsetMs: number): void {
  statement(
    database,
    "INSERT INTO settings (key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  ).run(String(offsetMs));
}
