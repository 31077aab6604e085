import { payments } from "../../../db/queries/payments";
import { type RenewalNoticeRow, renewalNotices } from "../../../db/queries/renewal-notices";
import { type SubscriptionRow, subscriptions } from "../../../db/queries/subscriptions";
import type { AppContext } from "../../context";
import { dayMs } from "../../platform/calendar";
import { queueSubscriptionEnded } from "../mail/events";
import { enqueueMail } from "../mail/outbox";
import { billingTurn } from "./billing-turn";
import { cancelUrl } from "./cancel-token";
import { nextChargeAmount } from "./next-charge";

/**
 * The pre-charge notice of the 2026 subscription law (DESIGN §13(a)): no renewal charge
 * unless a notice stating the date, the amount and how to cancel (with a signed cancel
 * link) went out at least 24 hours and at most 7 days before it; never more than the
 * notice stated; a charge whose notice has not gone out moves to 24 hours after the one
 * that does, with access kept meanwhile (the subscription stays ACTIVE).
 */
export const noticeLeadMs = 3 * dayMs;
export const noticeMinimumMs = dayMs;
export const noticeMaximumMs = 7 * dayMs;
/** A period whose notice never goes out (an address that bounces) ends this long after it. */
export const noticeGraceMs = 7 * dayMs;
const batch = 500;

export type NoticeContext = Pick<AppContext, "database" | "config">;

/** What a notice states: the charge's date and amount, and a cancel link valid from `now`. */
export const noticeData = (
  context: NoticeContext,
  subscription: SubscriptionRow,
  chargeAt: number,
  amount: number,
  now: number,
) => ({
  chargeAt,
  charge: { amount, currency: subscription.currency },
  tariffMonths: subscription.tariff_months,
  cancelUrl: cancelUrl(context.config.publicUrl, context.config.jwtSecret, subscription.user_id, now),
});

/**
 * Queues a notice for the subscription's next period, stating `chargeAt` and `amount`, to
 * go out at `sendAt` (now unless held back). Runs in the caller's transaction: the count
 * that numbers the notice and the insert that makes it the next one cannot be split by
 * another pass.
 */
export async function queueNotice(
  context: NoticeContext,
  subscription: SubscriptionRow,
  chargeAt: number,
  amount: number,
  now: number,
  sendAt = now,
): Promise<boolean> {
  const { database } = context;
  if (amount <= 0) return false; // a free renewal charges nothing: nothing to announce
  const periodIndex = subscription.next_period_index;
  const sequence = (await renewalNotices.count(database, subscription.id, periodIndex)) + 1;
  const mail = await enqueueMail(
    database,
    {
      userId: subscription.user_id,
      kind: "renewal_notice",
      eventKey: `${subscription.id}:${periodIndex}:${sequence}`,
      data: noticeData(context, subscription, chargeAt, amount, now),
      sendAt,
    },
    now,
  );
  if (!mail) return false;
  await renewalNotices.insert(
    database,
    { subscriptionId: subscription.id, periodIndex, mailId: mail.id, chargeAt, amount },
    now,
  );
  return true;
}

/** Queues the notices of every charge due within the next three days that has none. */
export async function queueRenewalNotices(context: NoticeContext, now: number): Promise<number> {
  const { database } = context;
  // Most calls (each mail pass, each renewal pass) find nothing to announce: they look
  // first without the billing turn, which they would hold alone, making claims wait. One
  // that falls due just after the look is announced by the next call.
  if (!(await renewalNotices.anyToNotify(database, now + noticeLeadMs))) return 0;
  let queued = 0;
  // A cursor, so that free renewals (seen, never announced) cannot hold later ones back.
  let after = { chargeAt: Number.MIN_SAFE_INTEGER, id: 0 };
  for (;;) {
    // The batch's counts and cursor are returned, not kept in the body: on PostgreSQL a
    // transaction that meets another is run again from the start.
    // In the renewal claims' turn: a claim may queue a period's notice too (noticeGate).
    const batchResult = await database.inTurn(billingTurn, async () => {
      const rows = await renewalNotices.toNotify(database, now + noticeLeadMs, after, batch);
      let queuedNow = 0;
      for (const subscription of rows) {
        const chargeAt = Math.max(subscription.next_charge_at ?? now, now + noticeMinimumMs);
        const amount = await nextChargeAmount(database, subscription, now);
        if (await queueNotice(context, subscription, chargeAt, amount, now)) queuedNow++;
      }
      return { seen: rows.length, queued: queuedNow, last: rows.at(-1) };
    });
    queued += batchResult.queued;
    const { last } = batchResult;
    if (last) after = { chargeAt: last.next_charge_at ?? 0, id: last.id };
    if (batchResult.seen < batch) return queued;
  }
}

export type NoticeGate = { chargeable: true; cap: number } | { chargeable: false };

/**
 * Whether a due renewal of `amount` may be charged now, in the claim transaction (a notice
 * it queues states that amount, priced with the rest of the batch). `notice` is the latest
 * of the period (renewalNotices.latest), read with the batch's. When it may not, the
 * charge is moved (and a notice queued if the period has no valid one), or, when the
 * period ended long ago and no notice could ever be sent, the subscription ends.
 */
export async function noticeGate(
  context: NoticeContext,
  subscription: SubscriptionRow,
  amount: number,
  notice: RenewalNoticeRow | undefined,
  now: number,
): Promise<NoticeGate> {
  const { database } = context;
  const sentAt = notice?.sent_at ?? null;
  if (notice && sentAt !== null && sentAt <= now - noticeMinimumMs && sentAt >= now - noticeMaximumMs) {
    // A slot bought after this notice whose new notice is missing (its purchase was settled
    // by the gateway's notification, say): announced now rather than charged less, or free.
    if (
      amount > notice.amount &&
      (await payments.slotBoughtAfter(database, subscription.id, notice.created_at))
    ) {
      await queueNotice(context, subscription, now + noticeMinimumMs, amount, now);
      await renewalNotices.postpone(database, subscription.id, now + noticeMinimumMs, now);
      return { chargeable: false };
    }
    return { chargeable: true, cap: notice.amount };
  }
  // A notice that went out, only too long ago, is no bounced address: the charge was held up
  // (its provider was down for days) and is announced again, as when none went out. The
  // grace is for a period whose notice never goes out.
  const isNoticeStale = sentAt !== null && sentAt < now - noticeMaximumMs;
  if (!isNoticeStale && (subscription.end_date ?? now) + noticeGraceMs < now) {
    const endedAt = subscription.end_date ?? now;
    await subscriptions.expire(database, subscription.id, endedAt, now);
    await queueSubscriptionEnded(database, subscription, endedAt, now);
    return { chargeable: false };
  }
  if (!notice || isNoticeStale) {
    await queueNotice(context, subscription, now + noticeMinimumMs, amount, now);
    await renewalNotices.postpone(database, subscription.id, now + noticeMinimumMs, now);
  } else {
    // Queued but not out yet (the mail server is down): look again in an hour; or out
    // less than 24 hours ago: charge 24 hours after it went out.
    await renewalNotices.postpone(
      database,
      subscription.id,
      sentAt === null ? now + dayMs / 24 : sentAt + noticeMinimumMs,
      now,
    );
  }
  return { chargeable: false };
}
