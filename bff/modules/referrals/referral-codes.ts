import type { Database } from "../../../db/database";
import { users } from "../../../db/queries/users";
import { randomToken } from "../../platform/random";

/** A unique index refused the row: SQLite says so in its message, PostgreSQL by SQLSTATE 23505. */
const isUniqueViolation = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === "23505" || String(error).includes("UNIQUE");

/**
 * The customer's own referral code, created on first request: 16 URL-safe characters.
 * Two first requests at once both try; the write only lands while the code is still
 * unset, and both then read back the one that did.
 */
export async function ensureReferralCode(database: Database, userId: number): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = (await users.byId(database, userId))?.invitation_code;
    if (existing) return existing;
    try {
      await users.setInvitationCode(database, userId, randomToken(12));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error("could not create a unique referral code");
}
