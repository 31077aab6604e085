import type { Database } from "bun:sqlite";
import { subscriptions } from "../../../db/queries/subscriptions";
import type { UserRow } from "../../../db/queries/users";
import { defaultPrices } from "../../../src/content/prices";
import { currentDiscount } from "../subscriptions/discount";
import { applyDiscount, planFor, toUnits } from "./pricing";

/**
 * Shop data for the purchase block: first payment, the price of the customer's
 * period after discounts, the list price to strike through, the discount as a
 * fraction, and (beyond the spec) the period and currency so labels need no guessing.
 */
export function shopOf(database: Database, user: UserRow, now: number) {
  const subscription = subscriptions.current(database, user.id);
  const plan = subscription
    ? {
        periodPrice: subscription.period_price,
        firstPayment: subscription.first_payment,
        tariffMonths: subscription.tariff_months,
      }
    : planFor(user.currency, 1, 1);
  const discount = currentDiscount(database, user.id, subscription, now);
  return {
    success: true as const,
    firstPayment: toUnits(plan.firstPayment),
    monthlyPayment: toUnits(applyDiscount(plan.periodPrice, discount.totalPercent)),
    strikethroughPrice: toUnits(plan.periodPrice),
    discount: discount.totalPercent / 100,
    referralDiscount: discount.referralPercent / 100,
    promoDiscount: discount.promoPercent / 100,
    periodMonths: plan.tariffMonths,
    currency: user.currency,
    devicePrice: toUnits(defaultPrices[user.currency].extraDevicePerMonth),
  };
}
