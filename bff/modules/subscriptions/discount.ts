import { type Discount, type DiscountBasis, discountFor } from "../../../core/prices";
import type { Database } from "../../../db/database";
import { promos } from "../../../db/queries/promos";
import type { SubscriptionRow } from "../../../db/queries/subscriptions";
import { countingInviteeMonths } from "../referrals/referral-standing";

/**
 * The promo in force and the months each counting invitee's paid period covers
 * (referral-standing.ts). A promo discounts the subscription's renewals until the promo
 * itself expires (DESIGN §13).
 */
export async function discountBasis(
  database: Database,
  userId: number,
  subscription: SubscriptionRow | undefined,
  now: number,
): Promise<DiscountBasis> {
  const promoExpires = subscription?.promo_id
    ? await promos.expirationOf(database, subscription.promo_id)
    : undefined;
  const isPromoValid = promoExpires !== undefined && promoExpires >= new Date(now).toISOString().slice(0, 10);
  return {
    promoPercent: isPromoValid ? (subscription?.promo_discount_percent ?? 0) : 0,
    inviteeMonths: await countingInviteeMonths(database, userId),
  };
}

/** The customer's discount on a period of `periodMonths` (by default, their subscription's). */
export async function currentDiscount(
  database: Database,
  userId: number,
  subscription: SubscriptionRow | undefined,
  now: number,
  periodMonths: number = subscription?.tariff_months ?? 1,
): Promise<Discount> {
  return discountFor(await discountBasis(database, userId, subscription, now), periodMonths);
}
