import type { Database } from "../../../db/database";
import type { PaymentRow } from "../../../db/queries/payments";
import { savedCards } from "../../../db/queries/saved-cards";
import { hasAccess, subscriptions } from "../../../db/queries/subscriptions";
import { logger } from "../../platform/logger";
import { queueSbpAutopayCanceled } from "../mail/events";

/**
 * The payer's bank ended the saved method a charge was made with (an SBP autopay binding
 * revoked or closed in its app: the charge's Fail said 6001, 6010 or 6011). Its token can
 * never be charged again, so it is forgotten as a card removal forgets a card (DESIGN
 * §13(b)): renewals stop, access runs to the end of the paid period, and coming back means
 * paying again at the plan's price (no second trial, as the removal's resume rule says).
 * No dunning: a retry could only meet the same refusal. The customer, who did nothing
 * here, is told in their language. Runs inside the transaction that records the decline;
 * true when it forgot a method.
 */
export async function forgetRevokedMethod(
  database: Database,
  payment: PaymentRow,
  reasonCode: number,
  now: number,
): Promise<boolean> {
  if (payment.subscription_id === null || payment.user_id === null) return false;
  const subscription = await subscriptions.byId(database, payment.subscription_id);
  // Only the method this charge was made with: one the customer removed since, or another
  // saved in its place, is not what the bank ended.
  if (!subscription?.card_token || subscription.saved_method !== payment.method) return false;
  await savedCards.stopRenewal(database, subscription.id, "bank", now);
  await savedCards.forget(database, payment.user_id, "bank", now);
  const after = await subscriptions.byId(database, subscription.id);
  const accessUntil = hasAccess(after, now) ? (after?.end_date ?? null) : null;
  await queueSbpAutopayCanceled(database, payment.user_id, { accessUntil, paymentId: payment.id }, now);
  logger.info("saved method ended by the payer's bank; renewals stop", {
    subscriptionId: subscription.id,
    paymentId: payment.id,
    reasonCode,
  });
  return true;
}
