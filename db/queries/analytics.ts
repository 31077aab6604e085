import type { Database } from "../database";
import { statement } from "../database";

/** One count of the first-party analytics: `day` is the UTC date, "2026-11-22". */
export type DailyEventCount = { day: string; name: string; count: number };

/** The UTC calendar day a moment falls on, as the table keys it. */
export const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

export const analytics = {
  /** Counts one event on its UTC day: a single upsert, atomic under concurrent requests. */
  count: (db: Database, name: string, time: number) =>
    statement(
      db,
      `INSERT INTO analytics_daily (day, name, count) VALUES (?, ?, 1)
       ON CONFLICT (day, name) DO UPDATE SET count = analytics_daily.count + 1`,
    ).run(utcDay(time), name),

  /** Counts per day and name from `fromDay` to `toDay` (UTC dates, both included), oldest first. */
  daily: (db: Database, fromDay: string, toDay: string) =>
    statement<DailyEventCount, [string, string]>(
      db,
      "SELECT day, name, count FROM analytics_daily WHERE day >= ? AND day <= ? ORDER BY day, name",
    ).all(fromDay, toDay),
};
