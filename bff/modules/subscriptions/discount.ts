import { discountShare, percentOf, referralShare, type Share } from "../../../core/prices";
import type { Database } from "../../../db/database";
import { promos } from "../../../db/queries/promos";
import type { SubscriptionRow } from "../../../db/queries/subscriptions";
import { countingInviteeMonths } from "../referrals/referral-standing";

/** What a customer's discount is made of: it depends on the period it is applied to. */
export type DiscountBasis = { promoPercent: number; inviteeMonths: number[] };

export type Discount = {
  /** The months of the period this discount is for. */
  periodMonths: number;
  referralPercent: number;
  promoPercent: number;
  totalPercent: number;
  /** The exact total, which amounts are computed from (core/prices.ts priceAfterDiscount). */
  total: Share;
};

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
 * The discount on a period of `periodMonths`: promo plus referral, capped at 100% (then the
 * period is free). Referral: 25% per counting invitee, prorated per month when the invitee
 * pays for fewer months than the period (core/prices.ts referralShare), capped at 100%.
 */
export function discountFor(basis: DiscountBasis, periodMonths: number): Discount {
  const referral = referralShare(basis.inviteeMonths, periodMonths);
  const total = discountShare(basis.promoPercent, referral);
  return {
    periodMonths,
    referralPercent: percentOf(referral),
    promoPercent: basis.promoPercent,
    totalPercent: percentOf(total),
    total,
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
