import { toCurrencyUnits } from "../../../../core/money";
import { planFor } from "../../../../core/prices";
import type { Database } from "../../../../db/database";
import { audit } from "../../../../db/queries/operators";
import { type CardOnFile, type PaymentRow, payments } from "../../../../db/queries/payments";
import { type SubscriptionRow, subscriptions } from "../../../../db/queries/subscriptions";
import { users } from "../../../../db/queries/users";
import { hardDeclineCodes, savedMethodGoneCodes } from "../../../adapters/cloudpayments/notification";
import { addMonths, dayMs } from "../../../platform/calendar";
import { logger } from "../../../platform/logger";
import {
  queuePaymentFailed,
  queuePaymentSucceeded,
  queuePaymentsSucceeded,
  queueSubscriptionEnded,
  queueTrialStarted,
} from "../../mail/events";
import { addBillingMonths } from "../../subscriptions/billing-anchor";
import { retryDelaysDays } from "../../subscriptions/dunning";
import { nextChargeAmount } from "../../subscriptions/next-charge";
import { refuseTrialAtPay } from "../orders/trial-at-pay";
import { forgetRevokedMethod } from "../saved-method-revoked";

const noCard: CardOnFile = { token: null, lastFour: null, firstSix: null, expiry: null, fingerprint: null };

/**
 * Money that came for an account its customer deleted (a Pay whose Check passed just
 * before the deletion, or one the bank sends again): the bank took it, so it is recorded,
 * but it buys nothing and the card is not kept. The audit log names it, for an operator
 * to refund from the panel.
 */
async function keepPaymentForDeletedAccount(
  database: Database,
  payment: PaymentRow,
  transactionId: string,
  now: number,
): Promise<boolean> {
  if ((await payments.complete(database, payment.id, transactionId, noCard, now)).changes === 0) return false;
  await audit.record(
    database,
    {
      operatorId: null,
      action: "payment.after-deletion",
      targetUserId: payment.user_id,
      details: { transactionId, total: toCurrencyUnits(payment.amount), currency: payment.currency },
    },
    now,
  );
  logger.warn("a payment arrived for a deleted account; recorded, nothing given, to be refunded", {
    paymentId: payment.id,
  });
  return true;
}

/**
 * Applies a successful payment once, whichever arrives first: the API answer or the Pay
 * notification. Every function here runs inside the caller's transaction and is a no-op
 * when the payment was already settled; the customer's message is queued with it.
 */
export async function settleSuccess(
  database: Database,
  payment: PaymentRow,
  transactionId: string,
  card: CardOnFile,
  now: number,
): Promise<boolean> {
  const subscription = payment.subscription_id
    ? await subscriptions.byId(database, payment.subscription_id)
    : undefined;
  // Deletion ends every subscription of the account, so only a payment for an ended one
  // (or for none) can be a deleted account's: a renewal, the common case, asks nothing more.
  if (
    payment.user_id !== null &&
    (!subscription || subscription.status === "EXPIRED") &&
    (await users.byId(database, payment.user_id))?.deleted_at
  )
    return keepPaymentForDeletedAccount(database, payment, transactionId, now);
  if ((await payments.complete(database, payment.id, transactionId, card, now)).changes === 0) return false;
  // Once per customer and card at Pay too (DESIGN §13): a refused trial buys nothing and goes back.
  if (payment.kind === "first" && payment.is_trial && (await refuseTrialAtPay(database, payment, card, now)))
    return true;
  if (!subscription) return true; // An anonymous prepaid purchase: applied when it is bound to an account.
  if (payment.kind === "first") {
    // What this order said, not what a later order (another tab) left on the subscription.
    await subscriptions.updatePlan(database, subscription.id, planOfOrder(payment, subscription), now);
    if (payment.is_trial) {
      const trialDays = payment.trial_days ?? subscription.trial_days;
      await subscriptions.activate(database, subscription.id, now, now + trialDays * dayMs, now);
    } else {
      // No trial (the customer or the card had one): this payment bought the first period.
      const months = payment.tariff_months ?? subscription.tariff_months;
      await subscriptions.activateFirstPeriod(database, subscription.id, now, addMonths(now, months), now);
    }
    await subscriptions.setCard(database, subscription.id, card, payment, now);
  } else if (payment.kind === "renewal") {
    const period = paidPeriod(payment, subscription, now);
    await subscriptions.extend(database, subscription.id, period.end_date, period.next_period_index, now);
    await queuePaymentsSucceeded(database, [{ payment, subscription: { ...subscription, ...period } }], now);
    return true;
  } else {
    await subscriptions.addExtraDevice(database, subscription.id, payment.created_at, now);
  }
  if (payment.kind === "first" && payment.is_trial)
    await queueTrialStarted(database, payment, subscription.id, nextChargeAmount, now);
  else await queuePaymentSucceeded(database, payment, subscription.id, now);
  return true;
}

/**
 * The plan a first order bought, kept with the order (its tariff and trial days, at the list
 * prices it was priced at): each order of a customer is its own, so paying one activates
 * exactly what it said, whichever order was opened last.
 */
function planOfOrder(payment: PaymentRow, subscription: SubscriptionRow) {
  return planFor(
    payment.currency,
    payment.tariff_months ?? subscription.tariff_months,
    payment.trial_days ?? subscription.trial_days,
  );
}

/**
 * The period a paid renewal adds: from where the last one ended, the subscription's months,
 * ending on its billing day (billing-anchor.ts): 31 January, 28 February, 31 March.
 */
function paidPeriod(payment: PaymentRow, subscription: SubscriptionRow, now: number) {
  return {
    id: subscription.id,
    end_date: addBillingMonths(subscription, subscription.end_date ?? now, subscription.tariff_months),
    next_period_index: (payment.period_index ?? 0) + 1,
  };
}

/** A paid renewal attempt as the gateway reported it: its transaction and the card it named. */
export type PaidRenewal = { payment: PaymentRow; transactionId: string; card: CardOnFile };

/**
 * settleSuccess for a batch of paid renewal attempts (the gateway's answers to a renewal
 * pass's charges, or a batch of its Pay notifications), with its effects: each attempt
 * completed once, its period added, its receipt mail queued. A few statements for the
 * whole batch, inside the caller's transaction: the attempts still to complete are read
 * with their subscriptions, then completed, extended and mailed together. An attempt
 * completed before (by whichever of the answer and the notification came first) is left
 * alone; one whose subscription has ended or that shares its subscription with another of
 * the batch goes through settleSuccess alone.
 */
export async function settleRenewalsPaid(
  database: Database,
  paid: readonly PaidRenewal[],
  now: number,
): Promise<void> {
  if (paid.length === 0) return;
  const byPayment = new Map<number, PaidRenewal>();
  // The first Pay of a payment completes it; a second transaction for it changes nothing.
  for (const item of paid) if (!byPayment.has(item.payment.id)) byPayment.set(item.payment.id, item);
  const completable = await payments.completableWithSubscription(database, [...byPayment.keys()]);
  const together: (PaidRenewal & { subscription: SubscriptionRow })[] = [];
  const alone: typeof together = [];
  const seen = new Set<number>();
  for (const { payment_id, ...subscription } of completable) {
    const item = byPayment.get(payment_id);
    if (!item) continue;
    // An ended subscription may be a deleted account's (settleSuccess keeps that money apart).
    const isPlain =
      item.payment.kind === "renewal" && subscription.status !== "EXPIRED" && !seen.has(subscription.id);
    seen.add(subscription.id);
    (isPlain ? together : alone).push({ ...item, subscription });
  }
  await settleTogether(database, together, now);
  // After the batch: a second payment of one subscription extends the period the first added.
  for (const { payment, transactionId, card } of alone)
    await settleSuccess(database, payment, transactionId, card, now);
}

async function settleTogether(
  database: Database,
  together: readonly (PaidRenewal & { subscription: SubscriptionRow })[],
  now: number,
) {
  if (together.length === 0) return;
  const completed = new Set(
    await payments.completeMany(
      database,
      together.map(({ payment, transactionId, card }) => ({
        payment_id: payment.id,
        transaction_id: transactionId,
        card_token: card.token,
        card_last_four: card.lastFour,
        card_first_six: card.firstSix ?? null,
        card_exp_date: card.expiry ?? null,
        card_fingerprint: card.fingerprint ?? null,
      })),
      now,
    ),
  );
  const extended = together
    .filter(({ payment }) => completed.has(payment.id))
    .map(({ payment, subscription }) => {
      const period = paidPeriod(payment, subscription, now);
      return { payment, period, subscription: { ...subscription, ...period } };
    });
  if (extended.length === 0) return;
  await subscriptions.extendMany(
    database,
    extended.map(({ period }) => period),
    now,
  );
  await queuePaymentsSucceeded(database, extended, now);
}

/**
 * A declined charge: first payments just fail; renewals go through dunning; hard declines
 * end at once; a saved method the payer's bank ended (an SBP binding revoked) is forgotten,
 * whatever the charge was for, and renewals stop without dunning.
 */
export async function settleDecline(
  database: Database,
  payment: PaymentRow,
  transactionId: string | null,
  reasonCode: number | null,
  reason: string | null,
  now: number,
): Promise<boolean> {
  if ((await payments.decline(database, payment.id, transactionId, reasonCode, reason, now)).changes === 0)
    return false;
  if (payment.kind !== "first" && reasonCode !== null && savedMethodGoneCodes.has(reasonCode)) {
    await forgetRevokedMethod(database, payment, reasonCode, now);
    return true;
  }
  if (payment.kind !== "renewal" || !payment.subscription_id) return true;
  const subscription = await subscriptions.byId(database, payment.subscription_id);
  if (subscription?.status !== "ACTIVE") return true;
  const attempts = subscription.dunning_attempts + 1;
  const isHard = reasonCode !== null && hardDeclineCodes.has(reasonCode);
  const delay = retryDelaysDays[attempts - 1];
  if (isHard || delay === undefined) {
    await subscriptions.expire(database, subscription.id, now, now);
    logger.info("subscription expired after declined renewal", {
      subscriptionId: subscription.id,
      reasonCode,
      attempts,
    });
    await queuePaymentFailed(database, payment, subscription, undefined, now);
    // Dunning kept access until now: that is when it ended.
    await queueSubscriptionEnded(database, subscription, now, now);
  } else {
    const dueAt = subscription.end_date ?? now;
    const nextRetryAt = dueAt + delay * dayMs;
    await subscriptions.scheduleRetry(database, subscription.id, nextRetryAt, attempts, now);
    // Access is kept through dunning; it ends when the last retry fails too.
    const accessUntil = dueAt + (retryDelaysDays.at(-1) ?? delay) * dayMs;
    await queuePaymentFailed(database, payment, subscription, { nextRetryAt, accessUntil }, now);
  }
  return true;
}

/** An attempt that never reached the bank (found nowhere after a crash): no money moved, nothing counts. */
export async function settleNotSent(database: Database, payment: PaymentRow, now: number): Promise<void> {
  await payments.decline(database, payment.id, null, null, "not sent to the gateway", now);
}
