import type { Database } from "../database";
import { statement } from "../database";
import { largerOf } from "../dialect";

/** One guessing key's failures in its current window (bff/platform/attempt-limit.ts). */
export type ThrottleRow = { failures: number; window_started_at: number };

export const loginThrottle = {
  byKey: (db: Database, key: string) =>
    statement<ThrottleRow, [string]>(
      db,
      "SELECT failures, window_started_at FROM login_throttle WHERE throttle_key = ?",
    ).get(key),

  /** Writes the key's count and window, whether the key had a row or not. */
  save: (db: Database, key: string, failures: number, windowStartedAt: number) =>
    statement(
      db,
      `INSERT INTO login_throttle (throttle_key, failures, window_started_at, locked_until) VALUES (?, ?, ?, NULL)
         ON CONFLICT (throttle_key) DO UPDATE SET failures = excluded.failures, window_started_at = excluded.window_started_at`,
    ).run(key, failures, windowStartedAt),

  /** Gives back one counted failure, never below none. */
  giveBack: (db: Database, key: string) =>
    statement(
      db,
      `UPDATE login_throttle SET failures = ${largerOf(db)}(failures - 1, 0) WHERE throttle_key = ?`,
    ).run(key),

  delete: (db: Database, key: string) =>
    statement(db, "DELETE FROM login_throttle WHERE throttle_key = ?").run(key),

  deleteStartingWith: (db: Database, prefix: string) =>
    statement(db, "DELETE FROM login_throttle WHERE substr(throttle_key, 1, ?) = ?").run(
      prefix.length,
      prefix,
    ),

  /** Event counters' windows (keys `events:…`) that ended by `before`. */
  deleteEventWindowsBefore: (db: Database, before: number) =>
    statement(
      db,
      "DELETE FROM login_throttle WHERE throttle_key LIKE 'events:%' AND window_started_at <= ?",
    ).run(before),
};
