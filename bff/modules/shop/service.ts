import type { Database } from "bun:sqlite";
import { type Plan, subscriptions } from "../../../db/queries/subscriptions";
import type { UserRow } from "../../../db/queries/users";
import { defaultPrices, savingPercent, tariffMonths } from "../../../src/content/prices";
import type { Language } from "../../../src/lib/i18n/languages";
import { firstOrderTerms } from "../payments/first-order";
import { currentDiscount } from "../subscriptions/discount";
import { applyDiscount, planFor, toUnits } from "./pricing";

/**
 * Shop data for the purchase block: first payment, the price of the customer's
 * period after discounts, the list price to strike through, the discount as a
 * fraction, and (beyond the spec) the period and currency so labels need no guessing.
 */
export function shopOf(database: Database, user: UserRow, now: number, language: Language) {
  const subscription = subscriptions.current(database, user.id);
  const plan: Plan = subscription
    ? {
        periodPrice: subscription.period_price,
        firstPayment: defaultPrices[subscription.currency].firstPayment,
        tariffMonths: subscription.tariff_months,
        trialDays: subscription.trial_days,
        currency: subscription.currency,
      }
    : planFor(user.currency, 1, 1);
  const discount = currentDiscount(database, user.id, subscription, now);
  // What buying now would mean (DESIGN §13(c)): trial or not, and the first full charge.
  const terms = firstOrderTerms(database, user.id, plan, subscription, language, now);
  return {
    success: true as const,
    firstPayment: toUnits(terms.amountNow),
    monthlyPayment: toUnits(applyDiscount(plan.periodPrice, discount.totalPercent)),
    strikethroughPrice: toUnits(plan.periodPrice),
    discount: discount.totalPercent / 100,
    referralDiscount: discount.referralPercent / 100,
    promoDiscount: discount.promoPercent / 100,
    periodMonths: plan.tariffMonths,
    currency: user.currency,
    devicePrice: toUnits(defaultPrices[user.currency].extraDevicePerMonth),
    trial: terms.isTrial,
    trialDays: plan.trialDays,
    ...(terms.noTrialReason ? { noTrialReason: terms.noTrialReason } : {}),
    firstCharge: {
      date: new Date(terms.firstCharge.at).toISOString(),
      amount: toUnits(terms.firstCharge.amount),
    },
    plans: plansOf(database, user, subscription, now, language, discount.totalPercent),
  };
}

/**
 * Every tariff the cabinet offers, priced as an order for it would be (the order route
 * uses the same list prices): the period price after discounts, the list price, the
 * saving against paying monthly, and what buying it now takes and charges first.
 */
function plansOf(
  database: Database,
  user: UserRow,
  subscription: ReturnType<typeof subscriptions.current>,
  now: number,
  language: Language,
  discountPercent: number,
) {
  const currency = subscription?.currency ?? user.currency;
  const table = defaultPrices[currency];
  const trialDays = subscription?.trial_days ?? 1;
  return tariffMonths.map((months) => {
    const plan = planFor(currency, months, trialDays);
    const terms = firstOrderTerms(database, user.id, plan, subscription, language, now);
    return {
      months,
      price: toUnits(applyDiscount(plan.periodPrice, discountPercent)),
      listPrice: toUnits(plan.periodPrice),
      savingPercent: savingPercent(table, months),
      firstPayment: toUnits(terms.amountNow),
      firstCharge: {
        date: new Date(terms.firstCharge.at).toISOString(),
        amount: toUnits(terms.firstCharge.amount),
      },
    };
  });
}
