import { type PaymentRow, payments } from "../../db/queries/payments";
import { savedCards } from "../../db/queries/saved-cards";
import { type SubscriptionRow, subscriptions } from "../../db/queries/subscriptions";
import { statement } from "../../db/statements";
import { accountIdOf } from "../modules/payments/orders";
import { receiptOf } from "../modules/payments/receipt";
import { type ChargeAnswer, chargeSavedCard, settleCharge } from "../modules/payments/saved-card";
import { settleDecline, settleNotSent, settleSuccess } from "../modules/payments/settlement";
import { applyDiscount, listPriceOfPeriod } from "../modules/shop/pricing";
import { currentDiscount } from "../modules/subscriptions/discount";
import type { AppContext } from "../platform/context";
import { logger } from "../platform/logger";

export type RenewalCounts = {
  recovered: number;
  charged: number;
  completed: number;
  declined: number;
  expired: number;
  free: number;
};

const batchSize = 500;
const yieldEvery = 25;

const attemptsOf = (context: AppContext, subscriptionId: number, periodIndex: number) =>
  statement<{ count: number }, [number, number]>(
    context.database,
    "SELECT COUNT(*) AS count FROM payments WHERE subscription_id = ? AND period_index = ? AND kind = 'renewal'",
  ).get(subscriptionId, periodIndex)?.count ?? 0;

/**
 * A crash can leave attempts that were committed but not settled. Each is settled by
 * asking the gateway what happened to its invoice, never by charging again.
 */
async function recoverPending(context: AppContext): Promise<number> {
  const pending = payments.pendingRenewals(context.database);
  for (const payment of pending) {
    const found = await context.payments.gateway.find(payment.invoice_id);
    const now = context.clock.now();
    context.database
      .transaction(() => {
        const model = found.Success ? found.Model : undefined;
        if (!model) settleNotSent(context.database, payment, now);
        else if (model.Status === "Completed")
          settleSuccess(
            context.database,
            payment,
            String(model.TransactionId),
            { token: null, lastFour: null },
            now,
          );
        else
          settleDecline(
            context.database,
            payment,
            String(model.TransactionId),
            model.ReasonCode ?? null,
            model.Reason ?? null,
            now,
          );
      })
      .immediate();
  }
  return pending.length;
}

type Attempt = { payment: PaymentRow; subscription: SubscriptionRow };

/**
 * One pass of the renewal scheduler: settle leftovers, then charge every due
 * subscription with its saved card. Attempts are committed (one transaction per batch)
 * before any gateway call, with InvoiceId = (subscription, period, attempt).
 */
export async function runRenewals(context: AppContext): Promise<RenewalCounts> {
  const { database, clock, payments: gatewayPayments } = context;
  const runStartedAt = clock.now();
  const counts: RenewalCounts = {
    recovered: await recoverPending(context),
    charged: 0,
    completed: 0,
    declined: 0,
    expired: 0,
    free: 0,
  };
  for (;;) {
    const now = clock.now();
    const due = subscriptions.due(database, now, batchSize);
    if (due.length === 0) break;
    const attempts: Attempt[] = database
      .transaction(() => {
        const created: Attempt[] = [];
        for (const subscription of due) {
          const discount = currentDiscount(database, subscription.user_id, subscription, now);
          const amount = applyDiscount(listPriceOfPeriod(subscription), discount.totalPercent);
          if (amount > 0 && !subscription.card_token) {
            // No saved card (the customer removed it, DESIGN §13(b)): nothing may be charged,
            // so no attempt, no decline and no dunning; the paid period simply ends.
            subscriptions.expire(database, subscription.id, subscription.end_date ?? now, now);
            continue;
          }
          const periodIndex = subscription.next_period_index;
          const attempt = attemptsOf(context, subscription.id, periodIndex) + 1;
          const payment = payments.insert(
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
            settleSuccess(
              database,
              payment,
              `free-${payment.invoice_id}`,
              { token: null, lastFour: null },
              now,
            );
            counts.free++;
          } else {
            created.push({ payment, subscription });
          }
        }
        return created;
      })
      .immediate();
    const results: { payment: PaymentRow; answer: ChargeAnswer }[] = [];
    for (const [index, { payment, subscription }] of attempts.entries()) {
      // Let the server answer other requests during a long pass.
      if (index % yieldEvery === 0) await new Promise((resolve) => setImmediate(resolve));
      counts.charged++;
      try {
        results.push({
          payment,
          answer: await chargeSavedCard(
            gatewayPayments.gateway,
            payment,
            subscription.card_token ?? "",
            receiptOf(context, payment),
          ),
        });
      } catch (error) {
        // Unknown outcome: the attempt stays pending and the next pass asks the gateway.
        logger.warn("renewal charge had no answer", { invoiceId: payment.invoice_id, error: String(error) });
      }
    }
    const settledAt = clock.now();
    database
      .transaction(() => {
        for (const { payment, answer } of results) {
          if (settleCharge(database, payment, answer, settledAt)) counts.completed++;
          else counts.declined++;
        }
      })
      .immediate();
    if (due.length < batchSize) break;
  }
  savedCards.expireEnded(database, clock.now());
  counts.expired =
    statement<{ count: number }, [number]>(
      database,
      "SELECT COUNT(*) AS count FROM subscriptions WHERE status = 'EXPIRED' AND updated_at >= ?",
    ).get(runStartedAt)?.count ?? 0;
  return counts;
}
