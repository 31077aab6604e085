import type { Database } from "../../../../db/database";
import { type PaymentRow, payments, webhookEvents } from "../../../../db/queries/payments";
import { type ClaimablePaymentRow, refunds } from "../../../../db/queries/refunds";
import { subscriptions } from "../../../../db/queries/subscriptions";
import { queueRefundMade } from "../../mail/events";
import type { RefundOutcome } from "../providers/provider";

/**
 * A refunded payment that bought the subscription's current period takes the period
 * with it: access ends now (DESIGN §6, §12). The inviter's referral discount follows,
 * since it counts only invitees with access. Runs inside the caller's transaction.
 */
export async function endAccessPaidBy(
  database: Database,
  payment: PaymentRow,
  now: number,
): Promise<boolean> {
  if (!payment.subscription_id || (payment.kind !== "first" && payment.kind !== "renewal")) return false;
  const subscription = await subscriptions.byId(database, payment.subscription_id);
  if (subscription?.status !== "ACTIVE" && subscription?.status !== "CANCELED") return false;
  if ((await payments.currentPeriodPayment(database, subscription.id)) !== payment.id) return false;
  await subscriptions.expire(database, subscription.id, now, now);
  return true;
}

/**
 * A device-slot charge refunded in full takes its slot away (DESIGN §13): the subscription
 * has one slot fewer, so the newest device in use beyond the remaining slots leaves the
 * nodes (the slot count's change is logged for the agents by the subscriptions trigger, as
 * an expiry is) and renewals no longer charge for it. Called once per payment, on its move
 * from completed to refunded, inside the transaction that records it.
 */
export async function takeRefundedSlot(
  database: Database,
  payment: PaymentRow,
  now: number,
): Promise<boolean> {
  if (payment.kind !== "device" || !payment.subscription_id) return false;
  return (await subscriptions.removeExtraDevice(database, payment.subscription_id, now)).changes === 1;
}

/**
 * A refund the gateway tells us of, applied up to what the payment took: a full refund
 * of the charge that bought the current period ends access, and of a slot's charge takes
 * the slot. The customer is told of the money that went back, unless an operator's refund
 * run holds the payment: that run tells of everything it returned in one message. Runs
 * inside the caller's transaction, once per refund TransactionId.
 */
export async function applyGatewayRefund(
  database: Database,
  original: PaymentRow,
  amount: number,
  refundTransactionId: string,
  now: number,
): Promise<void> {
  // The notification is what says a refund is done: one in progress (an SBP payment's) is now.
  await refunds.markDone(database, original.id);
  const refunded = await payments.addRefund(database, original.id, amount, now);
  let accessEnded = false;
  if (refunded?.status === "refunded") {
    if (original.status !== "refunded") await takeRefundedSlot(database, original, now);
    accessEnded = await endAccessPaidBy(database, original, now);
  }
  const returned = (refunded?.refunded_amount ?? original.refunded_amount) - original.refunded_amount;
  const isOperatorRun = (original as Partial<ClaimablePaymentRow>).refund_claim != null;
  if (returned <= 0 || isOperatorRun || original.user_id === null) return;
  await queueRefundMade(
    database,
    original.user_id,
    {
      total: { amount: returned, currency: original.currency },
      payments: 1,
      eventKey: `gateway:${refundTransactionId}`,
      methods: [original.method],
      accessEnded,
    },
    now,
  );
}

/**
 * Records how far a refund the provider took has gone, in the transaction that records the
 * refund: one it has not done yet (an SBP payment's, `isSettled` false) is in progress until
 * its Refund notification, unless that notification came first (delivery is in any order;
 * it names the refund's transaction and was recorded with its effect). Its access effects
 * were not waited for: they are a refund's, whenever the money arrives.
 */
export async function noteRefundProgress(
  database: Database,
  paymentId: number,
  outcome: Extract<RefundOutcome, { isRefunded: true }>,
): Promise<void> {
  if (outcome.isSettled) return;
  const { refundTransactionId } = outcome;
  if (refundTransactionId !== null && (await webhookEvents.has(database, "refund", refundTransactionId)))
    return;
  await refunds.markInProgress(database, paymentId);
}
