import type { Database } from "../../../db/database";
import { invitations } from "../../../db/queries/invitations";
import { payments } from "../../../db/queries/payments";
import { users } from "../../../db/queries/users";
import { applyPromoCode, type PromoOutcome } from "../promos/apply-promo";

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
      !(await payments.hasPaid(database, userId));
    if (mayBeInvited) await invitations.insert(database, inviter.id, userId, now);
    return "invitation";
  }
  return applyPromoCode(database, userId, code, now);
}
