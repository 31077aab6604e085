import { type PaymentRow, payments } from "../../db/queries/payments";
import { renewalLeases } from "../../db/queries/renewal-leases";
import { type SubscriptionRow, subscriptions } from "../../db/queries/subscriptions";
import type { AppContext } from "../context";
import { accountIdOf } from "../modules/payments/orders";
import { receiptOf } from "../modules/payments/receipt";
import { type ChargeAnswer, chargeSavedCard, settleCharge } from "../modules/payments/saved-card";
import { settleNotSent, settleSuccess } from "../modules/payments/settlement";
import { billingTurn, devicePurchaseHoldMs } from "../modules/subscriptions/billing-turn";
import { endWithoutCard, expireLapsed } from "../modules/subscriptions/ending";
import { nextChargeAmount } from "../modules/subscriptions/next-charge";
import { noticeGate, queueRenewalNotices } from "../modules/subscriptions/renewal-notices";
import { type Clock, systemClock } from "../platform/clock";
import { logger } from "../platform/logger";
import { deliverDueMail } from "./mail-worker";
import { type RenewalLease, takeRenewalLease } from "./renewal-lease";
import { settleLeftovers } from "./renewal-recovery";

export type RenewalCounts = {
  recovered: number;
  charged: number;
  completed: number;
  declined: number;
  expired: number;
  free: number;
  /** Pre-charge notices queued (DESIGN §13(a)). */
  noticed: number;
};

export type RenewalOptions = {
  /** Real time for the lease (never the billing test clock); tests pass one they can move. */
  leaseClock?: Clock;
  /** Attempts committed per transaction; tests make it small so that passes interleave. */
  batchSize?: number;
  /**
   * How long the batch under way may go on charging after the server is told to stop
   * (the server exits within 15 s, DESIGN §16); tests make it 0.
   */
  stopGraceMs?: number;
};

const defaultStopGraceMs = 9_000;

const yieldEvery = 25;

type Attempt = { payment: PaymentRow; subscription: SubscriptionRow };

/**
 * Claims up to `limit` due subscriptions for this pass: finding them and committing their
 * attempts under the lease happen in one transaction, and a subscription with a pending
 * attempt is not due, so each due renewal is claimed by exactly one pass. Claims take
 * turns (SQLite: one writer at a time; PostgreSQL: an advisory lock, and each claim sees
 * the attempts the one before it committed), and the due rows are locked while claimed,
 * so a cancellation either comes before the claim or waits for it. Free and card-less
 * renewals are settled at once; the rest are returned to be charged.
 */
async function claimDue(
  context: Pick<AppContext, "database" | "clock" | "config">,
  owner: string,
  limit: number,
) {
  const { database, clock } = context;
  // Counts are returned rather than added up in the body, which PostgreSQL may run twice.
  // Claims take turns across instances (inTurn), each seeing what the last one committed.
  return database.inTurn(billingTurn, async () => {
    const now = clock.now();
    // A subscription whose device slot is being bought waits for the next pass: its price
    // and notice change when the slot settles (renoticeRaisedCharge).
    const due = await subscriptions.due(database, now, limit, now - devicePurchaseHoldMs);
    // Every amount of the batch is priced before anything in it changes: an invitee whose
    // own renewal or expiry falls in the same pass counts toward its inviter as it stood
    // when the pass began, whatever the order of the rows.
    const prices: number[] = [];
    for (const subscription of due) prices.push(await nextChargeAmount(database, subscription, now));
    const toCharge: Attempt[] = [];
    let free = 0;
    for (const [index, subscription] of due.entries()) {
      let amount = prices[index] ?? 0;
      if (amount > 0 && !subscription.card_token) {
        // No saved card (the customer removed it, DESIGN §13(b)): nothing may be charged,
        // so no attempt, no decline and no dunning; the paid period simply ends.
        await endWithoutCard(database, subscription, now);
        continue;
      }
      if (amount > 0) {
        // DESIGN §13(a): only after a notice that went out 24 h to 7 days ago, and never
        // more than it stated; otherwise the charge moves (noticeGate).
        const gate = await noticeGate(context, subscription, amount, now);
        if (!gate.chargeable) continue;
        amount = Math.min(amount, gate.cap);
      }
      const periodIndex = subscription.next_period_index;
      const attempt = (await payments.renewalAttempts(database, subscription.id, periodIndex)) + 1;
      const payment = await payments.insert(
        database,
        {
          userId: subscription.user_id,
          subscriptionId: subscription.id,
          kind: "renewal",
          invoiceId: `renewal-${subscription.id}-${periodIndex}-${attempt}`,
          accountId: accountIdOf(subscription.user_id),
          amount,
          currency: subscription.currency,
          description: `Kannt subscription, ${subscription.tariff_months} month(s)`,
          periodIndex,
          attempt,
          // What the period buys, so its receipt (and a refund's) names it.
          tariffMonths: subscription.tariff_months,
          extraDevices: subscription.extra_devices,
        },
        now,
      );
      if (amount === 0) {
        // 100% discount: the period is extended free with a zero receipt.
        await settleSuccess(
          database,
          payment,
          `free-${payment.invoice_id}`,
          { token: null, lastFour: null },
          now,
        );
        free++;
      } else {
        await renewalLeases.claim(database, payment.id, owner);
        toCharge.push({ payment, subscription });
      }
    }
    return { toCharge, dueCount: due.length, free };
  });
}

/**
 * The server was told to stop and the batch's time is up: what was not sent is settled as
 * never sent (no money moved), so it is due again at once for the next pass, here after a
 * restart or on another instance, instead of waiting for this lease to run out.
 */
async function settleUnsent(context: Pick<AppContext, "database" | "clock">, unsent: Attempt[]) {
  const { database, clock } = context;
  await database.transaction(async () => {
    for (const { payment } of unsent) await settleNotSent(database, payment, clock.now());
  });
  logger.info("renewal pass stopped; unsent attempts left for the next pass", { unsent: unsent.length });
}

/**
 * Charges the claimed attempts one by one; stops sending once the lease is lost, or once
 * the server has been stopping for `stopGraceMs`.
 */
async function chargeClaimed(
  context: Pick<AppContext, "database" | "clock" | "config" | "payments" | "metrics" | "stopping">,
  lease: RenewalLease,
  attempts: Attempt[],
  counts: RenewalCounts,
  stopGraceMs: number,
) {
  const results: { payment: PaymentRow; answer: ChargeAnswer }[] = [];
  let stopSeenAt: number | undefined;
  for (const [index, { payment, subscription }] of attempts.entries()) {
    // Let the server answer other requests during a long pass.
    if (index % yieldEvery === 0) await new Promise((resolve) => setImmediate(resolve));
    if (context.stopping.aborted) {
      stopSeenAt ??= performance.now();
      if (performance.now() - stopSeenAt >= stopGraceMs) {
        await settleUnsent(context, attempts.slice(index));
        break;
      }
    }
    if (lease.isSweepDue()) counts.recovered += await settleLeftovers(context, lease);
    // Attempts not sent stay pending under the lost lease; another pass finds them unsent at the bank.
    if (!(await lease.keep())) break;
    counts.charged++;
    try {
      results.push({
        payment,
        answer: await chargeSavedCard(
          context.payments.gateway,
          payment,
          subscription.card_token ?? "",
          await receiptOf(context, payment),
        ),
      });
    } catch (error) {
      // Unknown outcome: the attempt stays pending and is looked up once this lease is gone.
      logger.warn("renewal charge had no answer", { invoiceId: payment.invoice_id, error: String(error) });
    }
  }
  return results;
}

/** What a renewal pass reads: it charges, settles, mails notices and counts. */
export type RenewalContext = Pick<
  AppContext,
  "database" | "clock" | "config" | "payments" | "mail" | "metrics" | "stopping"
>;

/**
 * One renewal pass: settle what dead passes left, then charge every due subscription with
 * its saved card. Each attempt is committed before the gateway call, with InvoiceId =
 * (subscription, period, attempt), under this pass's lease (see renewal-lease.ts), so any
 * number of passes may run at once, in one process or several, and none charges twice.
 */
export async function runRenewals(
  context: RenewalContext,
  options: RenewalOptions = {},
): Promise<RenewalCounts> {
  const { database, clock } = context;
  const batchSize = options.batchSize ?? context.config.renewalBatchSize;
  const runStartedAt = clock.now();
  const counts: RenewalCounts = {
    recovered: 0,
    charged: 0,
    completed: 0,
    declined: 0,
    expired: 0,
    free: 0,
    noticed: 0,
  };
  const lease = await takeRenewalLease(database, options.leaseClock ?? systemClock);
  try {
    counts.recovered = await settleLeftovers(context, lease);
    // Notices that could not go out before (a mail server that was down) go out first, so
    // the charges below see when they did.
    await deliverDueMail(context);
    // A shutdown lets the batch under way finish (its attempts are committed and sent) and
    // starts no other: what is still due waits for the next pass, here or elsewhere.
    while (!context.stopping.aborted && (await lease.keep())) {
      const { toCharge, dueCount, free } = await claimDue(context, lease.owner, batchSize);
      counts.free += free;
      const results = await chargeClaimed(
        context,
        lease,
        toCharge,
        counts,
        options.stopGraceMs ?? defaultStopGraceMs,
      );
      const settledAt = clock.now();
      // The gateway's answers are in hand: the transaction only records them. Tallied
      // after it commits, since PostgreSQL may run the body again.
      const completed = await database.transaction(async () => {
        let completedNow = 0;
        for (const { payment, answer } of results)
          if (await settleCharge(database, payment, answer, settledAt)) completedNow++;
        return completedNow;
      });
      counts.completed += completed;
      counts.declined += results.length - completed;
      const { renewals } = context.metrics;
      renewals.inc({ result: "completed" }, completed);
      renewals.inc({ result: "declined" }, results.length - completed);
      renewals.inc({ result: "free" }, free);
      // Sent without an answer: pending until a later pass looks them up.
      renewals.inc({ result: "unanswered" }, toCharge.length - results.length);
      if (dueCount < batchSize) break;
    }
  } finally {
    await lease.release();
  }
  if (context.stopping.aborted) return counts;
  await expireLapsed(database, clock.now());
  // Notices for the charges of the next days, priced from the accounts as this pass left them,
  // and whatever mail is due sent now rather than on the mail worker's next tick (claims
  // keep the two from sending a message twice).
  counts.noticed = await queueRenewalNotices(context, clock.now());
  await deliverDueMail(context);
  counts.expired = await subscriptions.expiredSince(database, runStartedAt);
  return counts;
}
