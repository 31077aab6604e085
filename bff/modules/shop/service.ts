import type { Language } from "../../../core/languages";
import { defaultPrices, savingPercent, tariffMonths } from "../../../core/prices";
import type { Database } from "../../../db/database";
import { type Plan, type SubscriptionRow, subscriptions } from "../../../db/queries/subscriptions";
import type { UserRow } from "../../../db/queries/users";
import { firstOrderTerms } from "../payments/first-order";
import { type DiscountBasis, discountBasis, discountFor } from "../subscriptions/discount";
import { applyDiscount, planFor, toUnits } from "../subscriptions/pricing";

/**
 * Shop data for the purchase block: first payment, the price of the customer's
 * period after discounts, the list price to strike through, the discount as a
 * fraction, and (beyond the spec) the period and currency so labels need no guessing.
 */
export async function shopOf(database: Database, user: UserRow, now: number, language: Language) {
  const subscription = await subscriptions.current(database, user.id);
  const plan: Plan = subscription
    ? {
        periodPrice: subscription.period_price,
        firstPayment: defaultPrices[subscription.currency].firstPayment,
        tariffMonths: subscription.tariff_months,
        trialDays: subscription.trial_days,
        currency: subscription.currency,
      }
    : planFor(user.currency, 1, 1);
  // The discount depends on the period it is for (a referral's share is prorated per month).
  const basis = await discountBasis(database, user.id, subscription, now);
  const discount = discountFor(basis, plan.tariffMonths);
  // What buying now would mean (DESIGN §13(c)): trial or not, and the first full charge.
  const terms = await firstOrderTerms(database, user.id, plan, subscription, language, now);
  return {
    success: true as const,
    firstPayment: toUnits(terms.amountNow),
    monthlyPayment: toUnits(applyDiscount(plan.periodPrice, discount)),
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
    plans: await plansOf(database, user, subscription, now, language, basis),
  };
}

/**
 * Every tariff the cabinet offers, priced as an order for it would be (the order route
 * uses the same list prices): the period price after its discount, the list price, the
 * saving against paying monthly, and what buying it now takes and charges first.
 */
async function plansOf(
  database: Database,
  user: UserRow,
  subscription: SubscriptionRow | undefined,
  now: number,
  language: Language,
  basis: DiscountBasis,
) {
  const currency = subscription?.currency ?? user.currency;
  const table = defaultPrices[currency];
  const trialDays = subscription?.trial_days ?? 1;
  // The tariffs are priced independently: on PostgreSQL their reads go out together.
  return Promise.all(
    tariffMonths.map(async (months) => {
      const plan = planFor(currency, months, trialDays);
      const terms = await firstOrderTerms(database, user.id, plan, subscription, language, now);
      return {
        months,
        price: toUnits(applyDiscount(plan.periodPrice, discountFor(basis, months))),
        listPrice: toUnits(plan.periodPrice),
        savingPercent: savingPercent(table, months),
        firstPayment: toUnits(terms.amountNow),
        firstCharge: {
          date: new Date(terms.firstCharge.at).toISOString(),
          amount: toUnits(terms.firstCharge.amount),
        },
      };
    }),
  );
}
