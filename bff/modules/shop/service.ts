import type { Language } from "../../../core/languages";
import { percentToFraction, toCurrencyUnits } from "../../../core/money";
import {
  type DiscountBasis,
  defaultPrices,
  discountFor,
  type Plan,
  planFor,
  priceAfterDiscount,
  savingPercent,
  tariffMonths,
} from "../../../core/prices";
import type { Database } from "../../../db/database";
import { type SubscriptionRow, subscriptions } from "../../../db/queries/subscriptions";
import type { UserRow } from "../../../db/queries/users";
import { slotQuote } from "../access/devices/slot-quote";
import { firstOrderTerms } from "../payments/orders/first-order";
import { discountBasis } from "../subscriptions/discount";

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
    firstPayment: toCurrencyUnits(terms.amountNow),
    monthlyPayment: toCurrencyUnits(priceAfterDiscount(plan.periodPrice, discount.total)),
    strikethroughPrice: toCurrencyUnits(plan.periodPrice),
    discount: percentToFraction(discount.totalPercent),
    referralDiscount: percentToFraction(discount.referralPercent),
    promoDiscount: percentToFraction(discount.promoPercent),
    periodMonths: plan.tariffMonths,
    currency: user.currency,
    devicePrice: toCurrencyUnits(defaultPrices[user.currency].extraDevicePerMonth),
    ...deviceChargeOf(subscription, now),
    trial: terms.isTrial,
    trialDays: plan.trialDays,
    ...(terms.noTrialReason ? { noTrialReason: terms.noTrialReason } : {}),
    firstCharge: {
      date: new Date(terms.firstCharge.at).toISOString(),
      amount: toCurrencyUnits(terms.firstCharge.amount),
    },
    plans: await plansOf(database, user, subscription, now, language, basis),
  };
}

/**
 * What one more device slot charges now, to when, and then a month (slot-quote.ts): the
 * purchase screen states it and `/api/profile/addDevice` charges exactly it. Absent while
 * no slot can be bought.
 */
function deviceChargeOf(subscription: SubscriptionRow | undefined, now: number) {
  const quote = slotQuote(subscription, now);
  if (!quote) return {};
  return {
    deviceCharge: {
      amount: toCurrencyUnits(quote.amount),
      until: new Date(quote.until).toISOString(),
      perMonth: toCurrencyUnits(quote.perMonth),
    },
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
        price: toCurrencyUnits(priceAfterDiscount(plan.periodPrice, discountFor(basis, months).total)),
        listPrice: toCurrencyUnits(plan.periodPrice),
        savingPercent: savingPercent(table, months),
        firstPayment: toCurrencyUnits(terms.amountNow),
        firstCharge: {
          date: new Date(terms.firstCharge.at).toISOString(),
          amount: toCurrencyUnits(terms.firstCharge.amount),
        },
      };
    }),
  );
}
