import type { Database } from "bun:sqlite";
import { statement } from "../../../db/statements";
import { AppError } from "../../platform/errors";

/**
 * Staff login limits (DESIGN §12), each over a 15-minute window: 5 wrong passwords per
 * account and address, 50 per account from all addresses, 20 per address over all accounts.
 */
export const loginLimits = { accountAndAddress: 5, account: 50, address: 20 } as const;
export const throttleWindowMs = 15 * 60 * 1000;

export type ThrottleKey = { key: string; limit: number };

export function loginThrottleKeys(username: string, address: string): ThrottleKey[] {
  const account = username.trim().toLowerCase();
  return [
    { key: `account+address:${account}|${address}`, limit: loginLimits.accountAndAddress },
    { key: `account:${account}`, limit: loginLimits.account },
    { key: `address:${address}`, limit: loginLimits.address },
  ];
}

type Row = { failures: number; window_started_at: number };

/**
 * Counts this attempt before the password is looked at, in one transaction, so parallel
 * guesses cannot all pass a check that each of them made before any was counted. Throws
 * 429 with the cool-down when any limit is already used up; otherwise the attempt stays
 * counted unless `releaseAttempt` gives it back (the password was right, or it was never
 * checked).
 */
export function reserveAttempt(database: Database, keys: ThrottleKey[], now: number): void {
  const blockedUntil = database
    .transaction(() => {
      let until = 0;
      const rows = keys.map(({ key }) =>
        statement<Row, [string]>(
          database,
          "SELECT failures, window_started_at FROM login_throttle WHERE throttle_key = ?",
        ).get(key),
      );
      keys.forEach(({ limit }, index) => {
        const row = rows[index];
        if (row && now - row.window_started_at < throttleWindowMs && row.failures >= limit)
          until = Math.max(until, row.window_started_at + throttleWindowMs);
      });
      if (until > 0) return until;
      keys.forEach(({ key }, index) => {
        const row = rows[index];
        const isFresh = !row || now - row.window_started_at >= throttleWindowMs;
        statement(
          database,
          `INSERT INTO login_throttle (throttle_key, failures, window_started_at, locked_until) VALUES (?, ?, ?, NULL)
           ON CONFLICT (throttle_key) DO UPDATE SET failures = excluded.failures, window_started_at = excluded.window_started_at`,
        ).run(key, isFresh ? 1 : (row?.failures ?? 0) + 1, isFresh ? now : (row?.window_started_at ?? now));
      });
      return 0;
    })
    .immediate();
  if (blockedUntil > 0) {
    const seconds = Math.ceil((blockedUntil - now) / 1000);
    const minutes = Math.ceil(seconds / 60);
    throw new AppError(
      "RATE_LIMITED",
      `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      seconds,
    );
  }
}

/** Gives back a counted attempt that was not a wrong password. */
export function releaseAttempt(database: Database, keys: ThrottleKey[]): void {
  for (const { key } of keys)
    statement(
      database,
      "UPDATE login_throttle SET failures = MAX(failures - 1, 0) WHERE throttle_key = ?",
    ).run(key);
}
