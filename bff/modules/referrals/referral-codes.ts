import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";
import { invitations } from "../../../db/queries/invitations";
import { users } from "../../../db/queries/users";
import { randomToken } from "../../platform/random";
import { applyPromoCode, type PromoOutcome } from "../promos/apply-promo";

const hasPaidBefore = async (database: Database, userId: number) =>
  (await statement<{ found: number }, [number]>(
    database,
    "SELECT 1 AS found FROM payments WHERE user_id = ? AND status IN ('completed', 'refunded') LIMIT 1",
  ).get(userId)) !== undefined;

/**
 * A code given at sign-up is either a friend's referral code (an invitation: never
 * oneself, never a second inviter, never for someone who already paid) or an
 * operator promo code (its discount, once per customer). Anything else is ignored.
 * Runs inside the caller's transaction: the checks and the insert are one decision.
 */
export async function applyReferralCode(
  database: Database,
  userId: number,
  rawCode: string | null | undefined,
  now: number,
): Promise<PromoOutcome | "invitation" | "none"> {
  const code = rawCode?.trim();
  if (!code) return "none";
  const inviter = await users.byInvitationCode(database, code);
  if (inviter) {
    const mayBeInvited =
      inviter.id !== userId &&
      (await invitations.inviterOf(database, userId)) === undefined &&
      !(await hasPaidBefore(database, userId));
    if (mayBeInvited) await invitations.insert(database, inviter.id, userId, now);
    return "invitation";
  }
  return applyPromoCode(database, userId, code, now);
}

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
