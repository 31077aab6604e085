import type { Currency } from "../../../core/money";
import type { PaymentMethod } from "../../../core/payment-methods";
import type { Database } from "../../../db/database";
import type { PaymentRow } from "../../../db/queries/payments";
import { type SubscriptionRow, subscriptions } from "../../../db/queries/subscriptions";
import { logger } from "../../platform/logger";
import type { MailData, MailKind, Money, RefundWay } from "./kinds";
import { receiptPath } from "./links";
import { enqueueMails, type MailEvent } from "./outbox";

/**
 * The messages events queue (DESIGN §14): each function builds its kind's facts from
 * the rows as they are now and queues the message in the caller's transaction, under a
 * key naming the event, so a redelivered notification or a repeated pass queues nothing
 * more. Amounts are minor units; times epoch ms.
 */

const money = (amount: number, currency: Currency): Money => ({ amount, currency });

/**
 * A transaction that met another one (PostgreSQL's serialization failure or deadlock):
 * no fault of the message, and the caller's whole transaction must run again.
 */
const isConflict = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40001" || code === "40P01";
};

/**
 * Queues in a savepoint of the caller's transaction: a message that cannot be built or
 * queued is logged and left out, and never undoes the money change it tells of (DESIGN §14).
 * A conflict is passed on instead, so the caller's transaction is run again with its message.
 */
async function queue<K extends MailKind>(
  database: Database,
  now: number,
  event: () => Promise<MailEvent<K> | undefined> | MailEvent<K> | undefined,
): Promise<void> {
  try {
    await database.transaction(async () => {
      const built = await event();
      if (built) await enqueueMails(database, [built], now);
    });
  } catch (error) {
    if (isConflict(error)) throw error;
    logger.error("customer message not queued", { error: String(error) });
  }
}

/**
 * A 1-unit trial was paid (or an anonymous one bound to the account): when and what the
 * first full charge is. The amount comes from `nextChargeAmount` (the subscriptions
 * module's rule, handed in so that mail stays below the features that queue it), read in
 * the same transaction as the row it prices.
 */
export async function queueTrialStarted(
  database: Database,
  payment: Pick<PaymentRow, "id" | "trial_days">,
  subscriptionId: number,
  nextChargeAmount: (database: Database, subscription: SubscriptionRow, now: number) => Promise<number>,
  now: number,
): Promise<void> {
  await queue(database, now, async () => {
    const subscription = await subscriptions.byId(database, subscriptionId);
    if (!subscription) return undefined;
    const data: MailData["trial_started"] = {
      trialDays: payment.trial_days ?? subscription.trial_days,
      firstChargeAt: subscription.next_charge_at ?? subscription.end_date ?? now,
      firstCharge: money(await nextChargeAmount(database, subscription, now), subscription.currency),
      tariffMonths: subscription.tariff_months,
    };
    return { userId: subscription.user_id, kind: "trial_started", data, eventKey: `payment:${payment.id}` };
  });
}

/**
 * A charge went through that is not the trial: a first payment at the plan's price, a
 * renewal (a free one at 100% off too: its period and zero receipt are news to the
 * customer), or an extra device slot.
 */
export async function queuePaymentSucceeded(
  database: Database,
  payment: PaymentRow,
  subscriptionId: number,
  now: number,
): Promise<void> {
  await queue(database, now, async () => {
    const subscription = await subscriptions.byId(database, subscriptionId);
    return subscription ? paymentSucceeded(payment, subscription, now) : undefined;
  });
}

/**
 * queuePaymentSucceeded for many payments at once (a batch of paid renewals), each with
 * its subscription as the payment left it; one statement, in one savepoint.
 */
export async function queuePaymentsSucceeded(
  database: Database,
  paid: readonly { payment: PaymentRow; subscription: Pick<SubscriptionRow, PaidFacts> }[],
  now: number,
): Promise<void> {
  if (paid.length === 0) return;
  try {
    await database.transaction(() =>
      enqueueMails(
        database,
        paid.map(({ payment, subscription }) => paymentSucceeded(payment, subscription, now)),
        now,
      ),
    );
  } catch (error) {
    if (isConflict(error)) throw error;
    logger.error("customer messages not queued", { count: paid.length, error: String(error) });
  }
}

/** What a payment_succeeded message reads of the subscription. */
type PaidFacts = "user_id" | "tariff_months" | "end_date" | "slots_paid_until";

function paymentSucceeded(
  payment: PaymentRow,
  subscription: Pick<SubscriptionRow, PaidFacts>,
  now: number,
): MailEvent<"payment_succeeded"> {
  const isDevice = payment.kind === "device";
  const data: MailData["payment_succeeded"] = {
    charge: money(payment.amount, payment.currency),
    paidAt: now,
    what: isDevice ? "device" : "subscription",
    tariffMonths: isDevice ? null : (payment.tariff_months ?? subscription.tariff_months),
    // A device slot lasts as long as the period it was bought in, or the slots it joined.
    paidUntil: (isDevice ? subscription.slots_paid_until : null) ?? subscription.end_date,
    // A path: the origin is the rendering app's (links.ts).
    receiptUrl: receiptPath(payment.id),
  };
  return { userId: subscription.user_id, kind: "payment_succeeded", data, eventKey: `payment:${payment.id}` };
}

/**
 * A renewal attempt was declined. `nextRetryAt` is the next try (null after the last
 * one or a hard decline); `accessUntil` is when access ends if no try succeeds (null
 * when it has ended now).
 */
export async function queuePaymentFailed(
  database: Database,
  payment: PaymentRow,
  subscription: SubscriptionRow,
  retry: { nextRetryAt: number; accessUntil: number } | undefined,
  now: number,
): Promise<void> {
  await queue(database, now, () => {
    const data: MailData["payment_failed"] = {
      charge: money(payment.amount, payment.currency),
      failedAt: now,
      nextRetryAt: retry?.nextRetryAt ?? null,
      accessUntil: retry?.accessUntil ?? null,
    };
    return { userId: subscription.user_id, kind: "payment_failed", data, eventKey: `payment:${payment.id}` };
  });
}

/** The customer turned auto-renewal off; access runs to the end of the paid period. */
export async function queueSubscriptionCanceled(
  database: Database,
  subscription: SubscriptionRow,
  now: number,
): Promise<void> {
  const accessUntil = subscription.end_date;
  if (accessUntil === null) return;
  await queue(database, now, () => ({
    userId: subscription.user_id,
    kind: "subscription_canceled",
    data: { accessUntil },
    // A customer may cancel, resume and cancel again: each cancel is its own event.
    eventKey: `subscription:${subscription.id}:at:${now}`,
  }));
}

/** The customer removed the saved card; `accessUntil` is null when no period is running. */
export async function queueCardRemoved(
  database: Database,
  userId: number,
  card: { lastFour: string | null; accessUntil: number | null },
  now: number,
): Promise<void> {
  await queue(database, now, () => ({
    userId,
    kind: "card_removed",
    data: { lastFour: card.lastFour, accessUntil: card.accessUntil },
    eventKey: `user:${userId}:at:${now}`,
  }));
}

/**
 * The payer's bank ended the SBP autopay the customer had allowed (the Fail of a charge of
 * it said so); `accessUntil` is null when no period is running. Once per charge that told.
 */
export async function queueSbpAutopayCanceled(
  database: Database,
  userId: number,
  facts: { accessUntil: number | null; paymentId: number },
  now: number,
): Promise<void> {
  await queue(database, now, () => ({
    userId,
    kind: "sbp_autopay_canceled",
    data: { accessUntil: facts.accessUntil },
    eventKey: `payment:${facts.paymentId}:sbp-autopay-canceled`,
  }));
}

/**
 * A subscription became EXPIRED because its time ran out (not by a refund, which tells
 * of itself). One message per ended period: a subscription renewed after expiring and
 * ending again ends at another time.
 */
export async function queueSubscriptionEnded(
  database: Database,
  subscription: Pick<SubscriptionRow, "id" | "user_id">,
  endedAt: number,
  now: number,
): Promise<void> {
  await queue(database, now, () => ({
    userId: subscription.user_id,
    kind: "subscription_ended",
    data: { endedAt },
    eventKey: `subscription:${subscription.id}:ended:${endedAt}`,
  }));
}

/** Money went back to the customer's card: an operator's refund run, or one the gateway made. */
export async function queueRefundMade(
  database: Database,
  userId: number,
  refund: {
    total: Money;
    payments: number;
    eventKey: string;
    /** How each refunded payment was made: the money goes back the same way. */
    methods: readonly PaymentMethod[];
    accessEnded: boolean;
  },
  now: number,
): Promise<void> {
  const isSbp = (method: PaymentMethod) => method === "sbp";
  const way: RefundWay = refund.methods.every(isSbp) ? "sbp" : refund.methods.some(isSbp) ? "both" : "card";
  await queue(database, now, () => ({
    userId,
    kind: "refund_made",
    data: {
      refund: refund.total,
      refundedAt: now,
      payments: refund.payments,
      way,
      accessEnded: refund.accessEnded,
    },
    eventKey: refund.eventKey,
  }));
}
