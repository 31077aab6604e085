import type { Database } from "../../db/database";
import { statement } from "../../db/database";
import { largerOf } from "../../db/dialect";
import { AppError, type LocalizedText } from "./errors";

/**
 * Limits on guessing (DESIGN §12): wrong staff passwords, wrong promo codes. Each key
 * (an account, an address, a customer) allows `limit` attempts per `windowMs`.
 */
export type LimitKey = { key: string; limit: number; windowMs: number };

type Row = { failures: number; window_started_at: number };

/**
 * Counts this attempt before the guess is looked at, in one transaction, so parallel
 * guesses (in this process or in another instance on the same database) cannot all pass
 * a check that each of them made before any was counted. Throws 429 with the cool-down
 * (`message` is told how many minutes) when any limit is already used up; otherwise the
 * attempt stays counted unless `releaseAttempt` gives it back (the guess was right, or it
 * was never checked).
 */
export async function reserveAttempt(
  database: Database,
  keys: LimitKey[],
  now: number,
  message: (minutes: number) => string | LocalizedText,
): Promise<void> {
  const blockedUntil = await database.transaction(async () => {
    let until = 0;
    const rows: (Row | undefined)[] = [];
    for (const { key } of keys)
      rows.push(
        await statement<Row, [string]>(
          database,
          "SELECT failures, window_started_at FROM login_throttle WHERE throttle_key = ?",
        ).get(key),
      );
    keys.forEach(({ limit, windowMs }, index) => {
      const row = rows[index];
      if (row && now - row.window_started_at < windowMs && row.failures >= limit)
        until = Math.max(until, row.window_started_at + windowMs);
    });
    if (until > 0) return until;
    for (const [index, { key, windowMs }] of keys.entries()) {
      const row = rows[index];
      const isFresh = !row || now - row.window_started_at >= windowMs;
      await statement(
        database,
        `INSERT INTO login_throttle (throttle_key, failures, window_started_at, locked_until) VALUES (?, ?, ?, NULL)
         ON CONFLICT (throttle_key) DO UPDATE SET failures = excluded.failures, window_started_at = excluded.window_started_at`,
      ).run(key, isFresh ? 1 : (row?.failures ?? 0) + 1, isFresh ? now : (row?.window_started_at ?? now));
    }
    return 0;
  });
  if (blockedUntil > 0) {
    const seconds = Math.ceil((blockedUntil - now) / 1000);
    const minutes = Math.ceil(seconds / 60);
    throw new AppError("RATE_LIMITED", message(minutes), seconds);
  }
}

/** Gives back a counted attempt that was not a wrong guess (one UPDATE each: nothing to interleave). */
export async function releaseAttempt(database: Database, keys: LimitKey[]): Promise<void> {
  for (const { key } of keys)
    await statement(
      database,
      `UPDATE login_throttle SET failures = ${largerOf(database)}(failures - 1, 0) WHERE throttle_key = ?`,
    ).run(key);
}
