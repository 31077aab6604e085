import type { Database } from "../database";
import { statement } from "../database";

/** ALTCHA challenges already spent, by signature, kept until they expire. */
export const captchaSolutions = {
  deleteExpired: (db: Database, now: number) =>
    statement(db, "DELETE FROM captcha_solutions WHERE expires_at < ?").run(now),

  /** One statement decides: 1 change for the caller that spends it, 0 for any other. */
  spend: (db: Database, signature: string, expiresAt: number) =>
    statement(
      db,
      "INSERT INTO captcha_solutions (signature, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
    ).run(signature, expiresAt),
};
