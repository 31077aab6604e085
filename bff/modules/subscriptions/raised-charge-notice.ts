import { mailOutbox } from "../../../db/queries/mail-outbox";
import { renewalNotices } from "../../../db/queries/renewal-notices";
import { subscriptions } from "../../../db/queries/subscriptions";
import { nextChargeAmount } from "./next-charge";
import { type NoticeContext, noticeData, noticeMinimumMs, queueNotice } from "./renewal-notices";

/**
 * How long a notice raised by a device slot waits before it goes out: slots bought one after
 * another (five phones, one hold each) restate that one notice instead of each sending its
 * own, so the customer gets one notice per charge, stating its final amount. The charge
 * waits 24 hours after it anyway.
 */
export const raisedNoticeHoldMs = 10 * 60 * 1000;

/**
 * A device slot bought after the next period's notice raises that period's charge above
 * what the notice stated; never more than a notice says, yet never free (DESIGN §13(a)):
 * the period's one current notice states the new amount, and the charge waits until 24
 * hours after it goes out (the gate holds it until then, as for a notice that went out
 * late; the subscription stays ACTIVE, so access is kept). A notice no mail worker has
 * touched yet is restated in place; one that went out (or is going) is superseded by a
 * new one, held back `raisedNoticeHoldMs` so that the next slots restate it too. Without a
 * notice yet, the regular one will state the slot. Runs in the billing turn with the
 * purchase's settlement, so no claim falls between them.
 */
export async function renoticeRaisedCharge(
  context: NoticeContext,
  subscriptionId: number,
  now: number,
): Promise<boolean> {
  const { database } = context;
  const subscription = await subscriptions.byId(database, subscriptionId);
  if (subscription?.status !== "ACTIVE" || subscription.next_charge_at === null || !subscription.card_token)
    return false;
  const notice = await renewalNotices.latest(database, subscription.id, subscription.next_period_index);
  if (!notice) return false;
  const amount = await nextChargeAmount(database, subscription, now);
  if (amount <= notice.amount) return false;
  const sendAt = now + raisedNoticeHoldMs;
  const chargeAt = Math.max(subscription.next_charge_at, notice.charge_at, sendAt + noticeMinimumMs);
  const data = JSON.stringify(noticeData(context, subscription, chargeAt, amount, now));
  if (await mailOutbox.restateUntouched(database, notice.mail_id, data, sendAt)) {
    await renewalNotices.restate(database, notice.id, { chargeAt, amount }, now);
  } else if (!(await queueNotice(context, subscription, chargeAt, amount, now, sendAt))) return false;
  await renewalNotices.postpone(database, subscription.id, chargeAt, now);
  return true;
}
