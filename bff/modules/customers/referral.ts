import type { Database } from "bun:sqlite";
import { invitations } from "../../../db/queries/invitations";
import { promos } from "../../../db/queries/promos";
import { subscriptions } from "../../../db/queries/subscriptions";
import { users } from "../../../db/queries/users";
import { statement } from "../../../db/statements";
import { randomToken } from "../../platform/random";

const hasPaidBefore = (database: Database, userId: number) =>
  statement<{ found: number }, [number]>(
    database,
    "SELECT 1 AS found FROM payments WHERE user_id = ? AND status IN ('completed', 'refunded') LIMIT 1",
  ).get(userId) !== null;

/**
 * A code given at sign-up is either a friend's referral code (an invitation: never
 * oneself, never a second inviter, never for someone who already paid) or an
 * operator promo code (its discount, once per customer). Anything else is ignored.
 */
export function applyReferralCode(
  database: Database,
  userId: number,
  rawCode: string | null | undefined,
  now: number,
): PromoOutcome | "invitation" | "none" {
  const code = rawCode?.trim();
  if (!code) return "none";
  const inviter = users.byInvitationCode(database, code);
  if (inviter) {
    const mayBeInvited =
      inviter.id !== userId &&
      invitations.inviterOf(database, userId) === undefined &&
      !hasPaidBefore(database, userId);
    if (mayBeInvited) invitations.insert(database, inviter.id, userId, now);
    return "invitation";
  }
  return applyPromoCode(database, userId, code, now);
}

export type PromoOutcome = "applied" | "unknown" | "already-used";

/** An operator promo code: its discount on the current subscription, once per customer. */
export function applyPromoCode(
  database: Database,
  userId: number,
  rawCode: string,
  now: number,
): PromoOutcome {
  const promo = promos.usable(database, rawCode.trim(), new Date(now).toISOString().slice(0, 10));
  const subscription = subscriptions.current(database, userId);
  if (!promo || !subscription) return "unknown";
  if (promos.activate(database, promo.id, userId, now).changes === 0) return "already-used";
  if (promo.discount_percent > subscription.promo_discount_percent) {
    subscriptions.setPromo(database, subscription.id, promo.id, promo.discount_percent, now);
  }
  return "applied";
}

/** The customer's own referral code, created on first request: 16 URL-safe characters. */
export function ensureReferralCode(database: Database, userId: number): string {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = users.byId(database, userId)?.invitation_code;
    if (existing) return existing;
    try {
      users.setInvitationCode(database, userId, randomToken(12));
    } catch (error) {
      if (!String(error).includes("UNIQUE")) throw error;
    }
  }
  throw new Error("could not create a unique referral code");
}
