import type { Database } from "../../../db/database";
import { promos } from "../../../db/queries/promos";
import type { SubscriptionRow } from "../../../db/queries/subscriptions";
import { countingInvitees } from "./referral-standing";

export const referralPercentPerInvitee = 25;

export type Discount = { referralPercent: number; promoPercent: number; totalPercent: number };

/**
 * Referral: 25% for each invitee that counts (referral-standing.ts), capped at 100%.
 * Total: promo plus referral, capped at 100% (then the period is free).
 */
export async function currentDiscount(
  database: Database,
  userId: number,
  subscription: SubscriptionRow | undefined,
  now: number,
): Promise<Discount> {
  const referralPercent = Math.min(
    100,
    referralPercentPerInvitee * (await countingInvitees(database, userId)),
  );
  // A promo discounts the subscription's renewals until the promo itself expires (DESIGN §13).
  const promoExpires = subscription?.promo_id
    ? await promos.expirationOf(database, subscription.promo_id)
    : undefined;
  const isPromoValid = promoExpires !== undefined && promoExpires >= new Date(now).toISOString().slice(0, 10);
  const promoPercent = isPromoValid ? (subscription?.promo_discount_percent ?? 0) : 0;
  return { referralPercent, promoPercent, totalPercent: Math.min(100, referralPercent + promoPercent) };
}
