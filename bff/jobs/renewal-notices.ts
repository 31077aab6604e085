import type { Database } from "bun:sqlite";
import { renewalNotices } from "../../db/queries/renewal-notices";
import { type SubscriptionRow, subscriptions } from "../../db/queries/subscriptions";
import { queueSubscriptionEnded } from "../modules/mail/events";
import { publicUrlOf } from "../modules/mail/links";
import { enqueueMail } from "../modules/mail/outbox";
import { cancelUrl } from "../modules/subscriptions/cancel-token";
import { nextChargeAmount } from "../modules/subscriptions/next-charge";
import { dayMs } from "../platform/calendar";
import type { AppContext } from "../platform/context";

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

type NoticeContext = Pick<AppContext, "database" | "config">;

/** Queues a notice for the subscription's next period, stating `chargeAt` and `amount`. */
function queueNotice(
  context: NoticeContext,
  subscription: SubscriptionRow,
  chargeAt: number,
  amount: number,
  now: number,
) {
  const { database } = context;
  if (amount <= 0) return false; // a free renewal charges nothing: nothing to announce
  const periodIndex = subscription.next_period_index;
  const sequence = renewalNotices.count(database, subscription.id, periodIndex) + 1;
  const mail = enqueueMail(
    database,
    {
      userId: subscription.user_id,
      kind: "renewal_notice",
      eventKey: `${subscription.id}:${periodIndex}:${sequence}`,
      data: {
        chargeAt,
        charge: { amount, currency: subscription.currency },
        tariffMonths: subscription.tariff_months,
        cancelUrl: cancelUrl(
          publicUrlOf(context.config),
          context.config.jwtSecret,
          subscription.user_id,
          now,
        ),
      },
    },
    now,
  );
  if (!mail) return false;
  renewalNotices.insert(
    database,
    { subscriptionId: subscription.id, periodIndex, mailId: mail.id, chargeAt, amount },
    now,
  );
  return true;
}

/** Queues the notices of every charge due within the next three days that has none. */
export function queueRenewalNotices(context: NoticeContext, now: number): number {
  const { database } = context;
  let queued = 0;
  // A cursor, so that free renewals (seen, never announced) cannot hold later ones back.
  let after = { chargeAt: Number.MIN_SAFE_INTEGER, id: 0 };
  for (;;) {
    const seen = database
      .transaction(() => {
        const rows = renewalNotices.toNotify(database, now + noticeLeadMs, after, batch);
        for (const subscription of rows) {
          const chargeAt = Math.max(subscription.next_charge_at ?? now, now + noticeMinimumMs);
          if (
            queueNotice(context, subscription, chargeAt, nextChargeAmount(database, subscription, now), now)
          )
            queued++;
        }
        const last = rows.at(-1);
        if (last) after = { chargeAt: last.next_charge_at ?? 0, id: last.id };
        return rows.length;
      })
      .immediate();
    if (seen < batch) return queued;
  }
}

export type NoticeGate = { chargeable: true; cap: number } | { chargeable: false };

/**
 * Whether a due renewal of `amount` may be charged now, in the claim transaction (a notice
 * it queues states that amount, priced with the rest of the batch). When it may not,
 * the charge is moved (and a notice queued if the period has no valid one), or, when the
 * period ended long ago and no notice could ever be sent, the subscription ends.
 */
export function noticeGate(
  context: NoticeContext,
  database: Database,
  subscription: SubscriptionRow,
  amount: number,
  now: number,
): NoticeGate {
  const notice = renewalNotices.latest(database, subscription.id, subscription.next_period_index);
  const sentAt = notice?.sent_at ?? null;
  if (notice && sentAt !== null && sentAt <= now - noticeMinimumMs && sentAt >= now - noticeMaximumMs)
    return { chargeable: true, cap: notice.amount };
  if ((subscription.end_date ?? now) + noticeGraceMs < now) {
    const endedAt = subscription.end_date ?? now;
    subscriptions.expire(database, subscription.id, endedAt, now);
    queueSubscriptionEnded(database, subscription, endedAt, now);
    return { chargeable: false };
  }
  if (!notice || (sentAt !== null && sentAt < now - noticeMaximumMs)) {
    queueNotice(context, subscription, now + noticeMinimumMs, amount, now);
    renewalNotices.postpone(database, subscription.id, now + noticeMinimumMs, now);
  } else {
    // Queued but not out yet (the mail server is down): look again in an hour; or out
    // less than 24 hours ago: charge 24 hours after it went out.
    renewalNotices.postpone(
      database,
      subscription.id,
      sentAt === null ? now + dayMs / 24 : sentAt + noticeMinimumMs,
      now,
    );
  }
  return { chargeable: false };
}
