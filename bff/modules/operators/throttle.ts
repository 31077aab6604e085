import type { Database } from "bun:sqlite";
import { statement } from "../../../db/statements";
import { AppError } from "../../platform/errors";

/** Five failures within 15 minutes, per account and per address, lock out for 15 minutes. */
export const maxFailures = 5;
const windowMs = 15 * 60 * 1000;
const lockMs = 15 * 60 * 1000;

type Row = { failures: number; window_started_at: number; locked_until: number | null };

export function assertNotLocked(database: Database, keys: string[], now: number): void {
  for (const key of keys) {
    const row = statement<Row, [string]>(database, "SELECT * FROM login_throttle WHERE throttle_key = ?").get(
      key,
    );
    if (row?.locked_until && row.locked_until > now) {
      const minutes = Math.ceil((row.locked_until - now) / 60_000);
      throw new AppError(
        "RATE_LIMITED",
        `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      );
    }
  }
}

export function recordFailure(database: Database, keys: string[], now: number): void {
  for (const key of keys) {
    const row = statement<Row, [string]>(database, "SELECT * FROM login_throttle WHERE throttle_key = ?").get(
      key,
    );
    const isFresh = !row || now - row.window_started_at > windowMs;
    const failures = isFresh ? 1 : (row?.failures ?? 0) + 1;
    statement(
      database,
      `INSERT INTO login_throttle (throttle_key, failures, window_started_at, locked_until) VALUES (?, ?, ?, ?)
       ON CONFLICT (throttle_key) DO UPDATE SET failures = excluded.failures, window_started_at = excluded.window_started_at,
       locked_until = excluded.locked_until`,
    ).run(
      key,
      failures,
      isFresh ? now : (row?.window_started_at ?? now),
      failures >= maxFailures ? now + lockMs : null,
    );
  }
}

export function clearFailures(database: Database, keys: string[]): void {
  for (const key of keys) statement(database, "DELETE FROM login_throttle WHERE throttle_key = ?").run(key);
}
