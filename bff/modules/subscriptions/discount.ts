import { type Discount, type DiscountBasis, discountFor } from "../../../core/prices";
import type { Database } from "../../../db/database";
import { promos } from "../../../db/queries/promos";
import type { SubscriptionRow } from "../../../db/queries/subscriptions";
import { countingInviteeMonths, countingInviteeMonthsOf } from "../referrals/referral-standing";

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

/**
 * discountBasis of many subscriptions (a renewal batch), each of its own customer, read in
 * two statements for the batch; by subscription id.
 */
export async function discountBases(
  database: Database,
  batch: readonly SubscriptionRow[],
  now: number,
): Promise<Map<number, DiscountBasis>> {
  const promoIds = [...new Set(batch.flatMap((subscription) => subscription.promo_id ?? []))];
  const expirations = promoIds.length > 0 ? await promos.expirationsOf(database, promoIds) : new Map();
  const inviteeMonths = await countingInviteeMonthsOf(database, [
    ...new Set(batch.map((subscription) => subscription.user_id)),
  ]);
  const today = new Date(now).toISOString().slice(0, 10);
  return new Map(
    batch.map((subscription) => {
      const promoExpires = subscription.promo_id ? expirations.get(subscription.promo_id) : undefined;
      const isPromoValid = promoExpires !== undefined && promoExpires >= today;
      const basis: DiscountBasis = {
        promoPercent: isPromoValid ? subscription.promo_discount_percent : 0,
        inviteeMonths: inviteeMonths.get(subscription.user_id) ?? [],
      };
      return [subscription.id, basis];
    }),
  );
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
