import type { Database } from "../../db/database";
import { statement } from "../../db/database";
import { largerOf } from "../../db/dialect";
import { AppError, type LocalizedText } from "./errors";

/**
 * Limits on guessing (DESIGN §12): wrong staff passwords, wrong promo codes. Each key
 * (an account, an address, a customer) allows `limit` attempts per `windowMs`.
 *
 * A key marked `waivedForCleanCallers` is one an attacker could fill to lock someone else
 * out (all wrong passwords for an account, from anywhere). When it is full it still lets
 * through a caller whose other keys have nothing counted in their windows (an address
 * with no recent failures): such a caller gets its attempt, and the attempt is counted on
 * those other keys before it is looked at, so a second one from the same caller, however
 * parallel, finds them no longer clean.
 */
export type LimitKey = { key: string; limit: number; windowMs: number; waivedForCleanCallers?: boolean };

type Row = { failures: number; window_started_at: number };

/** The 429 a caller gets until `until`, its message told how many minutes are left. */
export function coolDown(
  until: number,
  now: number,
  message: (minutes: number) => string | LocalizedText,
): AppError {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  return new AppError("RATE_LIMITED", message(Math.ceil(seconds / 60)), seconds);
}

/**
 * Counts this attempt before the guess is looked at, in one transaction, so parallel
 * guesses (in this process or in another instance on the same database) cannot all pass
 * a check that each of them made before any was counted. Throws 429 with the cool-down
 * (`message` is told how many minutes) when any limit is already used up; otherwise the
 * attempt stays counted unless `releaseAttempt` gives it back (the guess was right, or it
 * was never checked). Answers until when a full waived key would have refused it (0 when
 * none did): a wrong guess let through that way should still read as the cool-down.
 */
export async function reserveAttempt(
  database: Database,
  keys: LimitKey[],
  now: number,
  message: (minutes: number) => string | LocalizedText,
): Promise<{ waivedUntil: number }> {
  const outcome = await database.transaction(async () => {
    let until = 0;
    let waivedUntil = 0;
    const rows: (Row | undefined)[] = [];
    for (const { key } of keys)
      rows.push(
        await statement<Row, [string]>(
          database,
          "SELECT failures, window_started_at FROM login_throttle WHERE throttle_key = ?",
        ).get(key),
      );
    const isCounting = (index: number) => {
      const row = rows[index];
      const windowMs = keys[index]?.windowMs ?? 0;
      return row !== undefined && now - row.window_started_at < windowMs && row.failures > 0;
    };
    const isCleanCaller = keys.every(
      ({ waivedForCleanCallers }, index) => waivedForCleanCallers || !isCounting(index),
    );
    keys.forEach(({ limit, windowMs, waivedForCleanCallers }, index) => {
      const row = rows[index];
      if (!row || now - row.window_started_at >= windowMs || row.failures < limit) return;
      const rowUntil = row.window_started_at + windowMs;
      if (waivedForCleanCallers && isCleanCaller) waivedUntil = Math.max(waivedUntil, rowUntil);
      else until = Math.max(until, rowUntil);
    });
    if (until > 0) return { until, waivedUntil: 0 };
    for (const [index, { key, windowMs }] of keys.entries()) {
      const row = rows[index];
      const isFresh = !row || now - row.window_started_at >= windowMs;
      await statement(
        database,
        `INSERT INTO login_throttle (throttle_key, failures, window_started_at, locked_until) VALUES (?, ?, ?, NULL)
         ON CONFLICT (throttle_key) DO UPDATE SET failures = excluded.failures, window_started_at = excluded.window_started_at`,
      ).run(key, isFresh ? 1 : (row?.failures ?? 0) + 1, isFresh ? now : (row?.window_started_at ?? now));
    }
    return { until: 0, waivedUntil };
  });
  if (outcome.until > 0) throw coolDown(outcome.until, now, message);
  return { waivedUntil: outcome.waivedUntil };
}

/** Gives back a counted attempt that was not a wrong guess (one UPDATE each: nothing to interleave). */
export async function releaseAttempt(database: Database, keys: LimitKey[]): Promise<void> {
  for (const { key } of keys)
    await statement(
      database,
      `UPDATE login_throttle SET failures = ${largerOf(database)}(failures - 1, 0) WHERE throttle_key = ?`,
    ).run(key);
}

/** Forgets what was counted on these keys and on every key starting with one of `prefixes`. */
export async function clearAttempts(database: Database, keys: string[], prefixes: string[] = []) {
  for (const key of keys)
    await statement(database, "DELETE FROM login_throttle WHERE throttle_key = ?").run(key);
  for (const prefix of prefixes)
    await statement(database, "DELETE FROM login_throttle WHERE substr(throttle_key, 1, ?) = ?").run(
      prefix.length,
      prefix,
    );
}
