import type { Database } from "../../db/database";
import { loginThrottle, type ThrottleRow } from "../../db/queries/login-throttle";
import { AppError, type ErrorCode } from "./errors";

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

/** The 429 refusal `code` a caller gets until `until`, with how many minutes are left. */
export function coolDown(until: number, now: number, code: ErrorCode): AppError {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  return new AppError(code, { minutes: Math.ceil(seconds / 60) }, { retryAfterSeconds: seconds });
}

/**
 * Counts this attempt before the guess is looked at, in one transaction, so parallel
 * guesses (in this process or in another instance on the same database) cannot all pass
 * a check that each of them made before any was counted. Throws the 429 `code` with the
 * cool-down's minutes when any limit is already used up; otherwise the
 * attempt stays counted unless `releaseAttempt` gives it back (the guess was right, or it
 * was never checked). Answers until when a full waived key would have refused it (0 when
 * none did): a wrong guess let through that way should still read as the cool-down.
 */
export async function reserveAttempt(
  database: Database,
  keys: LimitKey[],
  now: number,
  code: ErrorCode,
): Promise<{ waivedUntil: number }> {
  const outcome = await database.transaction(async () => {
    let until = 0;
    let waivedUntil = 0;
    const rows: (ThrottleRow | undefined)[] = [];
    for (const { key } of keys) rows.push(await loginThrottle.byKey(database, key));
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
      await loginThrottle.save(
        database,
        key,
        isFresh ? 1 : (row?.failures ?? 0) + 1,
        isFresh ? now : (row?.window_started_at ?? now),
      );
    }
    return { until: 0, waivedUntil };
  });
  if (outcome.until > 0) throw coolDown(outcome.until, now, code);
  return { waivedUntil: outcome.waivedUntil };
}

/** Gives back a counted attempt that was not a wrong guess (one UPDATE each: nothing to interleave). */
export async function releaseAttempt(database: Database, keys: LimitKey[]): Promise<void> {
  for (const { key } of keys) await loginThrottle.giveBack(database, key);
}

/** Forgets what was counted on these keys and on every key starting with one of `prefixes`. */
export async function clearAttempts(database: Database, keys: string[], prefixes: string[] = []) {
  for (const key of keys) await loginThrottle.delete(database, key);
  for (const prefix of prefixes) await loginThrottle.deleteStartingWith(database, prefix);
}
