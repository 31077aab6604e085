import type { Database } from "bun:sqlite";
import { type PaymentRow, payments } from "../../../db/queries/payments";
import { subscriptions } from "../../../db/queries/subscriptions";

/**
 * A refunded payment that bought the subscription's current period takes the period
 * with it: access ends now (DESIGN §6, §12). The inviter's referral discount follows,
 * since it counts only invitees with access. Runs inside the caller's transaction.
 */
export function endAccessPaidBy(database: Database, payment: PaymentRow, now: number): boolean {
  if (!payment.subscription_id || (payment.kind !== "first" && payment.kind !== "renewal")) return false;
  const subscription = subscriptions.byId(database, payment.subscription_id);
  if (subscription?.status !== "ACTIVE" && subscription?.status !== "CANCELED") return false;
  if (payments.currentPeriodPayment(database, subscription.id) !== payment.id) return false;
  subscriptions.expire(database, subscription.id, now, now);
  return true;
}
