import { translator } from "../../../../core/i18n";
import type { Language } from "../../../../core/languages";
import {
  type FirstOrderCharges,
  firstOrderCharges,
  type Plan,
  priceAfterDiscount,
} from "../../../../core/prices";
import type { Database } from "../../../../db/database";
import type { SubscriptionRow } from "../../../../db/queries/subscriptions";
import { currentDiscount } from "../../subscriptions/discount";
import { hasHadTrial } from "./trial";

export type FirstOrderTerms = FirstOrderCharges & {
  /** A 1-unit trial, or the plan's price now. */
  isTrial: boolean;
  noTrialReason: string | undefined;
};

/**
 * What a customer's first order costs (DESIGN §13): the 1-unit trial once per customer
 * (whether they had it is read here), then the plan's price after their discounts.
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
  const periodPrice = priceAfterDiscount(plan.periodPrice, discount.total);
  const isTrial = !isFullPriceAsked && !(await hasHadTrial(database, userId));
  const charges = firstOrderCharges({
    isTrial,
    firstPayment: plan.firstPayment,
    periodPrice,
    trialDays: plan.trialDays,
    now,
  });
  return {
    isTrial,
    ...charges,
    // Shown on the order screen, in the customer's language.
    noTrialReason: isTrial || isFullPriceAsked ? undefined : translator(language)("order.noTrial"),
  };
}
