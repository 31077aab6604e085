import type { Language } from "../../../core/languages";
import type { Database } from "../../../db/database";
import type { Plan, SubscriptionRow } from "../../../db/queries/subscriptions";
import { dayMs } from "../../platform/calendar";
import type { LocalizedText } from "../../platform/errors";
import { currentDiscount } from "../subscriptions/discount";
import { applyDiscount } from "../subscriptions/pricing";
import { hasHadTrial } from "./trial";

/** Why there is no trial, in the customer's language (shown on the order screen). */
const noTrialReasons: LocalizedText = {
  en: "You have already used your trial, so this order is charged at the plan's price now.",
  ru: "Вы уже воспользовались пробным периодом, поэтому этот заказ сразу оплачивается по цене тарифа.",
  zh: "您已使用过试用期，因此本订单将立即按套餐价格收费。",
  kk: "Сіз сынақ кезеңін пайдаланып қойдыңыз, сондықтан бұл тапсырыс бірден тариф бағасымен төленеді.",
};

export type FirstOrderTerms = {
  /** A 1-unit trial, or the plan's price now. */
  isTrial: boolean;
  /** What the first payment takes now, minor units. */
  amountNow: number;
  /** The first full charge: its moment and amount (minor units). Without a trial that is now. */
  firstCharge: { at: number; amount: number };
  noTrialReason: string | undefined;
};

/**
 * What a customer's first order costs (DESIGN §13): the 1-unit trial once per customer,
 * then the plan's price after their discounts. A card must be saved for the renewals, so
 * a first payment without a trial never goes below the 1-unit payment even at 100% off.
 */
export async function firstOrderTerms(
  database: Database,
  userId: number,
  plan: Plan,
  subscription: SubscriptionRow | undefined,
  language: Language,
  now: number,
  /** The customer asked for the plan at its price (their card had a trial, DESIGN §13). */
  isFullPriceAsked = false,
): Promise<FirstOrderTerms> {
  // The discount on this plan's period: a referral's share depends on its months.
  const discount = await currentDiscount(database, userId, subscription, now, plan.tariffMonths);
  const periodPrice = applyDiscount(plan.periodPrice, discount);
  if (!isFullPriceAsked && !(await hasHadTrial(database, userId))) {
    return {
      isTrial: true,
      amountNow: plan.firstPayment,
      firstCharge: { at: now + plan.trialDays * dayMs, amount: periodPrice },
      noTrialReason: undefined,
    };
  }
  const amountNow = Math.max(periodPrice, plan.firstPayment);
  return {
    isTrial: false,
    amountNow,
    firstCharge: { at: now, amount: amountNow },
    noTrialReason: isFullPriceAsked ? undefined : noTrialReasons[language],
  };
}
