import { defaultPrices, proRataDevicePrice } from "../../../../core/prices";
import type { SubscriptionRow } from "../../../../db/queries/subscriptions";
import { billingDayOf } from "../../subscriptions/billing-anchor";

/** What one more device slot costs: now, to when, and then a month with each renewal (minor units). */
export type SlotQuote = { amount: number; until: number; perMonth: number };

/**
 * The price of one more device slot now (DESIGN §13): the rest of the paid period pro rata
 * (core/prices.ts `proRataDevicePrice`), then its monthly price in every renewal. The
 * purchase screen states `amount` before the customer confirms, and the purchase charges
 * exactly this figure. Undefined when no slot can be bought (no running paid period).
 */
export function slotQuote(subscription: SubscriptionRow | undefined, now: number): SlotQuote | undefined {
  if (subscription?.status !== "ACTIVE" || !subscription.end_date) return undefined;
  const perMonth = defaultPrices[subscription.currency].extraDevicePerMonth;
  // While the other slots run to an end of their own (a purchase added time they were not
  // paid for), one more is priced to that end and ends with them.
  const slotsEnd = subscription.slots_paid_until;
  const until = slotsEnd !== null && slotsEnd > now ? slotsEnd : subscription.end_date;
  return {
    amount: proRataDevicePrice(perMonth, until, now, billingDayOf(subscription)),
    until,
    perMonth,
  };
}
