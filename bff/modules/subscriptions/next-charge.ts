import { discountFor, listPriceOfPeriod, priceAfterDiscount } from "../../../core/prices";
import type { Database } from "../../../db/database";
import { renewedExtraSlots, type SubscriptionRow } from "../../../db/queries/subscriptions";
import { currentDiscount, discountBases } from "./discount";

/**
 * What the next renewal of this subscription charges by the rules now, in minor units:
 * the period's list price with its extra devices, after the customer's discount. The
 * cabinet shows it and the mails state it; the renewal pass charges by the same rule.
 */
export async function nextChargeAmount(
  database: Database,
  subscription: SubscriptionRow,
  now: number,
): Promise<number> {
  const discount = await currentDiscount(database, subscription.user_id, subscription, now);
  return priceAfterDiscount(listPriceOf(subscription), discount.total);
}

/**
 * nextChargeAmount of every subscription of a batch (a renewal claim's), their discounts
 * read once for the batch: the same rule and amounts, by subscription id.
 */
export async function nextChargeAmounts(
  database: Database,
  batch: readonly SubscriptionRow[],
  now: number,
): Promise<Map<number, number>> {
  const bases = await discountBases(database, batch, now);
  return new Map(
    batch.map((subscription) => {
      const basis = bases.get(subscription.id) ?? { promoPercent: 0, inviteeMonths: [] };
      const discount = discountFor(basis, subscription.tariff_months);
      return [subscription.id, priceAfterDiscount(listPriceOf(subscription), discount.total)];
    }),
  );
}

/**
 * The subscription's next period at list price, with the extra device slots it renews
 * (not those that end before it: DESIGN §13, slots never ride along unpaid, nor are
 * they charged once they have ended).
 */
export function listPriceOf(subscription: SubscriptionRow): number {
  return listPriceOfPeriod({
    periodPrice: subscription.period_price,
    tariffMonths: subscription.tariff_months,
    extraDevices: renewedExtraSlots(subscription),
    currency: subscription.currency,
  });
}
