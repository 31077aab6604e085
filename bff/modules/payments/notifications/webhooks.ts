import type { Database } from "../../../../db/database";
import { duplicatePayments } from "../../../../db/queries/duplicate-payments";
import { type CardOnFile, type PaymentRow, payments, webhookEvents } from "../../../../db/queries/payments";
import { hasAccess, subscriptions } from "../../../../db/queries/subscriptions";
import { users } from "../../../../db/queries/users";
import { type Notification, parseAmount } from "../../../adapters/cloudpayments/notification";
import { logger } from "../../../platform/logger";
import {
  cardFingerprint,
  hasCardHadTrial,
  hasOtherFirstPayment,
  markTrialRefusal,
  type TrialRefusal,
} from "../orders/trial";
import { applyGatewayRefund } from "../refunds/refund-effects";
import { applyRenewalOutcome } from "../renewals/notification-batches";
import { settleDecline, settleSuccess } from "./settlement";

/** Check answers of the gateway's protocol. */
export const checkCodes = {
  ok: 0,
  wrongInvoice: 10,
  wrongAccount: 11,
  wrongAmount: 12,
  cannotAccept: 13,
  expired: 20,
} as const;

const orderLifetimeMs = 24 * 60 * 60 * 1000;

/** The card a notification names, with its fingerprint when the gateway gave all three parts. */
function cardOf(notification: Notification): CardOnFile {
  const firstSix = notification.CardFirstSix ?? null;
  const lastFour = notification.CardLastFour ?? null;
  const expiry = notification.CardExpDate ?? null;
  return {
    token: notification.Token ?? null,
    lastFour,
    firstSix,
    expiry,
    fingerprint: cardFingerprint({ firstSix, lastFour, expiry }) ?? null,
  };
}

async function trialRefusalAtCheck(
  database: Database,
  payment: PaymentRow,
  card: CardOnFile,
): Promise<TrialRefusal | undefined> {
  if (payment.user_id !== null && (await hasOtherFirstPayment(database, payment.user_id, payment.id)))
    return "customer";
  if (card.fingerprint && (await hasCardHadTrial(database, card.fingerprint))) return "card";
  return undefined;
}

/** Check: may this payment go ahead? The browser can change the amount, so everything is compared with our order. */
export async function answerCheck(
  database: Database,
  notification: Notification,
  now: number,
): Promise<number> {
  const payment = await payments.byInvoice(database, notification.InvoiceId);
  if (!payment) return checkCodes.wrongInvoice;
  if (notification.AccountId !== payment.account_id) return checkCodes.wrongAccount;
  if (parseAmount(notification.Amount) !== payment.amount || notification.Currency !== payment.currency) {
    return checkCodes.wrongAmount;
  }
  if (payment.status === "completed" || payment.status === "refunded") return checkCodes.cannotAccept;
  // A customer who deleted their account is charged nothing more, from a tab left open too.
  if (payment.user_id !== null && (await users.byId(database, payment.user_id))?.deleted_at)
    return checkCodes.cannotAccept;
  // The trial is once per customer and once per card (DESIGN §13). The refusal is kept on
  // the order, so the purchase screen can say why and offer the plan at its price.
  const card = cardOf(notification);
  const refusal = payment.is_trial ? await trialRefusalAtCheck(database, payment, card) : undefined;
  if (refusal) {
    await markTrialRefusal(database, payment.id, refusal, now);
    return checkCodes.cannotAccept;
  }
  // A first order opened before the account had access (a second tab) would buy nothing once
  // another one paid: the rule of ordering (orders.ts) holds at the charge too.
  if (
    payment.kind === "first" &&
    payment.user_id !== null &&
    hasAccess(await subscriptions.current(database, payment.user_id), now)
  )
    return checkCodes.cannotAccept;
  if (payment.kind === "first" && now - payment.created_at > orderLifetimeMs) return checkCodes.expired;
  return checkCodes.ok;
}

/** Whether a Pay or Fail is for the order as we hold it: amount, currency and account. */
const matchesOrder = (payment: PaymentRow, notification: Notification) =>
  parseAmount(notification.Amount) === payment.amount &&
  notification.Currency === payment.currency &&
  notification.AccountId === payment.account_id;

const reasonCodeOf = (notification: Notification) =>
  notification.ReasonCode ? Number(notification.ReasonCode) : null;

/**
 * Whether this Pay or Fail is already applied to the payment: it carries the outcome and
 * the transaction the payment records (the charge's answer, which may come first, or this
 * very notification delivered again).
 */
function isAlreadyApplied(payment: PaymentRow | undefined, kind: "pay" | "fail", transactionId: string) {
  if (!payment || payment.transaction_id !== transactionId) return false;
  return kind === "pay"
    ? payment.status === "completed" || payment.status === "refunded"
    : payment.status === "declined";
}

/** A notification's protocol code, and whether it brought a second payment of one order (to refund). */
export type Applied = { code: number; isDuplicate?: boolean };

/** Whether the payment was completed by a transaction other than this one: a second payment of one order. */
const isPaidByAnother = (payment: PaymentRow, transactionId: string) =>
  (payment.status === "completed" || payment.status === "refunded") &&
  payment.transaction_id !== null &&
  payment.transaction_id !== transactionId;

/**
 * Pay, Fail and Refund are applied once per TransactionId: the event key is inserted
 * in the same transaction as the effect, so redeliveries and reorderings never credit twice.
 * A charge is settled once, by whichever comes first of its answer and its notification:
 * a notification whose outcome is already recorded costs one indexed read and is answered 0.
 */
export async function applyNotification(
  database: Database,
  kind: "pay" | "fail" | "refund",
  notification: Notification,
  now: number,
): Promise<Applied> {
  if (kind === "refund") return { code: await applyRefundNotification(database, notification, now) };
  const known = await payments.byInvoice(database, notification.InvoiceId);
  if (isAlreadyApplied(known, kind, notification.TransactionId)) return { code: 0 };
  // A renewal pass's charges notify together: applied many per transaction. A renewal
  // attempt's order never changes once committed, so the row read here is the one to apply to.
  if (
    known?.kind === "renewal" &&
    matchesOrder(known, notification) &&
    !isPaidByAnother(known, notification.TransactionId)
  ) {
    await applyRenewalOutcome(database, {
      kind,
      payment: known,
      transactionId: notification.TransactionId,
      card: cardOf(notification),
      reasonCode: reasonCodeOf(notification),
      reason: notification.Reason ?? null,
      now,
    });
    return { code: 0 };
  }
  return database.transaction(async (): Promise<Applied> => {
    if (
      !(await webhookEvents.record(database, kind, notification.TransactionId, notification.InvoiceId, now))
    )
      return { code: 0 };
    const payment = await payments.byInvoice(database, notification.InvoiceId);
    if (!payment) {
      logger.error("notification for an unknown invoice", {
        kind,
        transactionId: notification.TransactionId,
        invoiceId: notification.InvoiceId,
      });
      return { code: 0 };
    }
    if (!matchesOrder(payment, notification)) {
      logger.error("notification does not match its order; not applied", {
        kind,
        invoiceId: payment.invoice_id,
        transactionId: notification.TransactionId,
        amount: notification.Amount,
        currency: notification.Currency,
      });
      return { code: 0 };
    }
    if (kind === "pay" && isPaidByAnother(payment, notification.TransactionId)) {
      // The order was paid already (an SBP QR paid twice): this money bought nothing and goes
      // back at once (notification-intake.ts), through the provider that took it.
      await duplicatePayments.record(
        database,
        {
          transaction_id: notification.TransactionId,
          payment_id: payment.id,
          provider: payment.provider,
          amount: payment.amount,
          currency: payment.currency,
        },
        now,
      );
      logger.warn("an order was paid twice; the second payment goes back", {
        invoiceId: payment.invoice_id,
        transactionId: notification.TransactionId,
      });
      return { code: 0, isDuplicate: true };
    }
    if (kind === "pay") {
      await settleSuccess(database, payment, notification.TransactionId, cardOf(notification), now);
      // How support finds an anonymous purchase that was never attached (docs/money.md).
      if (payment.user_id === null && notification.Email?.trim())
        await payments.setPayerEmail(database, payment.id, notification.Email.trim().slice(0, 320), now);
    } else {
      await settleDecline(
        database,
        payment,
        notification.TransactionId,
        reasonCodeOf(notification),
        notification.Reason ?? null,
        now,
      );
    }
    return { code: 0 };
  });
}

/**
 * A refund made at the gateway (its back office, or ours through its API). It is applied
 * up to what the payment took, once per refund TransactionId. One that arrives before
 * the payment it refunds is known as paid gets a non-zero code and is not recorded, so
 * the gateway delivers it again later. A refund of all of the payment that bought the
 * current period ends access, as an operator refund does.
 */
function applyRefundNotification(
  database: Database,
  notification: Notification,
  now: number,
): Promise<number> {
  return database.transaction(async () => {
    // The refund of a second payment of one order (duplicate-refunds.ts): only that one is settled.
    const duplicate = notification.PaymentTransactionId
      ? await duplicatePayments.byTransaction(database, notification.PaymentTransactionId)
      : undefined;
    if (duplicate) {
      if (
        await webhookEvents.record(
          database,
          "refund",
          notification.TransactionId,
          notification.InvoiceId,
          now,
        )
      )
        await duplicatePayments.markRefunded(database, duplicate.transaction_id, now);
      return 0;
    }
    const original =
      (notification.PaymentTransactionId
        ? await payments.byTransaction(database, notification.PaymentTransactionId)
        : undefined) ??
      (notification.InvoiceId ? await payments.byInvoice(database, notification.InvoiceId) : undefined);
    if (!original || (original.status !== "completed" && original.status !== "refunded")) {
      logger.warn("refund notification before its payment; asking for redelivery", {
        transactionId: notification.TransactionId,
        invoiceId: notification.InvoiceId,
      });
      return checkCodes.cannotAccept;
    }
    if (
      !(await webhookEvents.record(database, "refund", notification.TransactionId, original.invoice_id, now))
    )
      return 0;
    const amount = parseAmount(notification.Amount) ?? 0;
    await applyGatewayRefund(database, original, amount, notification.TransactionId, now);
    return 0;
  });
}
