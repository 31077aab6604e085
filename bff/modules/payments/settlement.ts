import { toCurrencyUnits } from "../../../core/money";
import type { Database } from "../../../db/database";
import { audit } from "../../../db/queries/operators";
import { type CardOnFile, type PaymentRow, payments } from "../../../db/queries/payments";
import { subscriptions } from "../../../db/queries/subscriptions";
import { users } from "../../../db/queries/users";
import { hardDeclineCodes } from "../../adapters/cloudpayments/notification";
import { addMonths, dayMs } from "../../platform/calendar";
import { logger } from "../../platform/logger";
import {
  queuePaymentFailed,
  queuePaymentSucceeded,
  queueSubscriptionEnded,
  queueTrialStarted,
} from "../mail/events";
import { retryDelaysDays } from "../subscriptions/dunning";
import { nextChargeAmount } from "../subscriptions/next-charge";
import { refuseTrialAtPay } from "./trial-at-pay";

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
    if (payment.is_trial) {
      const trialDays = payment.trial_days ?? subscription.trial_days;
      await subscriptions.activate(database, subscription.id, now, now + trialDays * dayMs, now);
    } else {
      // No trial (the customer or the card had one): this payment bought the first period.
      const months = payment.tariff_months ?? subscription.tariff_months;
      await subscriptions.activateFirstPeriod(database, subscription.id, now, addMonths(now, months), now);
    }
    await subscriptions.setCard(
      database,
      subscription.id,
      card.token,
      card.lastFour,
      now,
      card.fingerprint ?? null,
    );
  } else if (payment.kind === "renewal") {
    const periodStart = subscription.end_date ?? now;
    await subscriptions.extend(
      database,
      subscription.id,
      addMonths(periodStart, subscription.tariff_months),
      (payment.period_index ?? 0) + 1,
      now,
    );
  } else {
    await subscriptions.addExtraDevice(database, subscription.id, now);
  }
  if (payment.kind === "first" && payment.is_trial)
    await queueTrialStarted(database, payment, subscription.id, nextChargeAmount, now);
  else await queuePaymentSucceeded(database, payment, subscription.id, now);
  return true;
}

/** A declined charge: first payments just fail; renewals go through dunning; hard declines end at once. */
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
