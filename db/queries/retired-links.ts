import type { Language } from "../../core/languages";
import type { Database } from "../database";
import { statement } from "../database";

export type RetiredReason = "removed" | "replaced";

/** A retired link as its answer needs it: why, and whose device it named. */
export type RetiredLink = {
  reason: RetiredReason;
  device_id: number;
  user_id: number;
  device_name: string;
  language: Language;
};

/** Links that no longer give access (migration 0023 / 0012), known by the SHA-256 of their token. */
export const retiredLinks = {
  /** Kept once: a token is retired for the first reason it was. */
  add: (db: Database, tokenHash: string, deviceId: number, reason: RetiredReason, now: number) =>
    statement<never, [string, number, string, number]>(
      db,
      `INSERT INTO retired_links (token_hash, device_id, reason, retired_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (token_hash) DO NOTHING`,
    ).run(tokenHash, deviceId, reason, now),

  byHash: (db: Database, tokenHash: string) =>
    statement<RetiredLink, [string]>(
      db,
      `SELECT r.reason, r.device_id, d.user_id, d.device_name, u.language
         FROM retired_links r JOIN devices d ON d.id = r.device_id JOIN users u ON u.id = d.user_id
       WHERE r.token_hash = ? AND u.deleted_at IS NULL`,
    ).get(tokenHash),

  /** Up to `limit` links retired before `before` (the billing clock) are forgotten. */
  pruneBefore: (db: Database, before: number, limit: number) =>
    statement<never, [number, number]>(
      db,
      `DELETE FROM retired_links WHERE token_hash IN (
         SELECT token_hash FROM retired_links WHERE retired_at < ? ORDER BY retired_at LIMIT ?)`,
    ).run(before, limit),
};
