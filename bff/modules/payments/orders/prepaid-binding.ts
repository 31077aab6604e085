import { type TranslationKey, translator } from "../../../../core/i18n";
import type { Language } from "../../../../core/languages";
import { planFor } from "../../../../core/prices";
import type { Database } from "../../../../db/database";
import { type PaymentRow, payments } from "../../../../db/queries/payments";
import {
  hasAccess,
  paidExtraSlots,
  type SubscriptionRow,
  subscriptions,
} from "../../../../db/queries/subscriptions";
import { addMonths, dayMs } from "../../../platform/calendar";
import { queuePaymentSucceeded, queueTrialStarted } from "../../mail/events";
import { addBillingMonths } from "../../subscriptions/billing-anchor";
import { nextChargeAmount } from "../../subscriptions/next-charge";
import { hasHadTrial, markTrialRefusal, releaseTrialCard } from "./trial";

export type PrepaidRefusal =
  | "not-found"
  | "not-paid"
  | "refunded"
  | "other-account"
  | "account-had-trial"
  | "card-had-trial"
  | "trial-returned";
export type PrepaidOutcome =
  | { bound: true }
  | {
      bound: false;
      reason: string;
      refusal: PrepaidRefusal;
      /** The 1-unit payment is sent back (refused-trial-refunds.ts) once the binding's transaction ends. */
      isRefundDue?: boolean;
    };

const refusalKeys = {
  "not-found": "binding.notFound",
  "not-paid": "binding.notPaid",
  refunded: "binding.refunded",
  "other-account": "binding.otherAccount",
  "account-had-trial": "binding.accountHadTrial",
  "card-had-trial": "binding.cardHadTrial",
  "trial-returned": "binding.trialReturned",
} as const satisfies Record<PrepaidRefusal, TranslationKey>;

/** The card an anonymous purchase saved, carried over to the subscription it is bound to. */
const cardOf = (payment: PaymentRow) => ({
  token: payment.card_token,
  lastFour: payment.card_last_four,
  fingerprint: payment.card_fingerprint,
});
/** Why a purchase is not attached, in the customer's language (an answer, not an error). */
export const prepaidRefusalText = (refusal: PrepaidRefusal, language: Language) =>
  translator(language)(refusalKeys[refusal]);

const refuse = (refusal: PrepaidRefusal, language: Language, isRefundDue = false): PrepaidOutcome => ({
  bound: false,
  refusal,
  reason: prepaidRefusalText(refusal, language),
  ...(isRefundDue ? { isRefundDue } : {}),
});

/** What a purchase bought: the trial's days, or the tariff's months of a full-price purchase. */
export type Bought = { days: number } | { months: number };

/** What binding a purchase would do to an account now; nothing is written. */
export type PrepaidPlan =
  | { action: "already-bound" }
  | { action: "refuse"; refusal: PrepaidRefusal; payment?: PaymentRow }
  | {
      action: "extend" | "start";
      payment: PaymentRow;
      bought: Bought;
      /** The end of access once bound. */
      until: number;
      current: SubscriptionRow | undefined;
      /** Extra device slots held now that the added time does not pay for: they end at `at`. */
      slotsEnd?: { count: number; at: number };
    };

const refusalOfMarked: Record<NonNullable<PaymentRow["trial_refusal"]>, PrepaidRefusal> = {
  card: "card-had-trial",
  customer: "trial-returned",
  account: "trial-returned",
};

/**
 * The one rule both the preview (what the dialog says before the click) and the binding
 * follow (DESIGN §13). A 1-unit purchase is a trial: never for an account that had one
 * (a second 1-rouble period would make the trial twice per customer). A full-price
 * purchase (its card had a trial, so it was bought at the plan's price) buys the tariff's
 * months, for any account. The bought period runs from the end of the account's access,
 * or from now; extra device slots the account holds end with the time they were paid for.
 */
export async function planPrepaidBinding(
  database: Database,
  userId: number,
  prepaidToken: string,
  now: number,
): Promise<PrepaidPlan> {
  const payment = await payments.byPrepaidToken(database, prepaidToken);
  if (!payment) return { action: "refuse", refusal: "not-found" };
  if (payment.user_id !== null)
    return payment.user_id === userId
      ? { action: "already-bound" }
      : { action: "refuse", refusal: "other-account" };
  if (payment.trial_refusal) return { action: "refuse", refusal: refusalOfMarked[payment.trial_refusal] };
  if (payment.status === "refunded") return { action: "refuse", refusal: "refunded" };
  if (payment.status !== "completed") return { action: "refuse", refusal: "not-paid" };
  const isTrial = payment.is_trial === 1;
  if (isTrial && (await hasHadTrial(database, userId)))
    return { action: "refuse", refusal: "account-had-trial", payment };
  const bought: Bought = isTrial ? { days: payment.trial_days ?? 1 } : { months: payment.tariff_months ?? 1 };
  const current = await subscriptions.current(database, userId);
  const isExtending = current !== undefined && hasAccess(current, now);
  const from = isExtending ? (current.end_date ?? now) : now;
  // Months added to a period end on its billing day; a new period starts its own.
  const until =
    "days" in bought
      ? from + bought.days * dayMs
      : isExtending
        ? addBillingMonths(current, from, bought.months)
        : addMonths(from, bought.months);
  if (!isExtending) return { action: "start", payment, bought, until, current };
  // DESIGN §13: slots never ride along unpaid. They end with the time they were paid for
  // (subscriptions.extendBy), and the dialog says so before the click.
  const slots = paidExtraSlots(current, now);
  const slotsEnd = slots > 0 ? { count: slots, at: current.slots_paid_until ?? from } : undefined;
  return { action: "extend", payment, bought, until, current, ...(slotsEnd ? { slotsEnd } : {}) };
}

/**
 * Binds a paid anonymous purchase to the account that confirmed it, once (DESIGN §13).
 * It never locks anyone out: a refusal is an answer with its reason, not an error that
 * fails the sign-in. A trial refused because the account had one is marked, gives its
 * card back (no trial was given with it) and is refunded after this transaction. An
 * account without access gets the purchase's plan and card; one that already has access
 * gets the bought period added to its end, and keeps its card. Runs inside the sign-in's
 * transaction.
 */
export async function bindPrepaid(
  database: Database,
  userId: number,
  prepaidToken: string,
  language: Language,
  now: number,
): Promise<PrepaidOutcome> {
  const plan = await planPrepaidBinding(database, userId, prepaidToken, now);
  if (plan.action === "already-bound") return { bound: true };
  if (plan.action === "refuse") {
    if (plan.refusal !== "account-had-trial" || !plan.payment) return refuse(plan.refusal, language);
    await markTrialRefusal(database, plan.payment.id, "account", now);
    await releaseTrialCard(database, plan.payment.id);
    return refuse(plan.refusal, language, true);
  }
  const { payment, current, until } = plan;
  const isTrial = payment.is_trial === 1;
  if (plan.action === "extend" && current) {
    // Days added move the billing day to the new end; months keep it.
    const anchor = "days" in plan.bought ? until : null;
    await subscriptions.extendBy(database, current.id, until - (current.end_date ?? now), anchor, now);
    if (!current.card_token) await subscriptions.setCard(database, current.id, cardOf(payment), payment, now);
    await payments.bind(database, payment.id, userId, current.id, now);
    return { bound: true };
  }
  const bought = planFor(payment.currency, payment.tariff_months ?? 1, payment.trial_days ?? 1);
  const subscriptionId =
    current?.status === "NOT_ACTIVE"
      ? current.id
      : await subscriptions.insertNotActive(database, userId, bought, now);
  await subscriptions.updatePlan(database, subscriptionId, bought, now);
  // The bought time runs from the binding: time spent before signing in is not lost.
  if (isTrial) await subscriptions.activate(database, subscriptionId, payment.created_at, until, now);
  else await subscriptions.activateFirstPeriod(database, subscriptionId, now, until, now);
  await subscriptions.setCard(database, subscriptionId, cardOf(payment), payment, now);
  await payments.bind(database, payment.id, userId, subscriptionId, now);
  // The purchase is this account's from now: the first message it gets about it.
  if (isTrial) await queueTrialStarted(database, payment, subscriptionId, nextChargeAmount, now);
  else await queuePaymentSucceeded(database, { ...payment, user_id: userId }, subscriptionId, now);
  return { bound: true };
}
