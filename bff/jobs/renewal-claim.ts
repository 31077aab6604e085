import { type NewRenewalAttempt, type PaymentRow, payments } from "../../db/queries/payments";
import { renewalClaims } from "../../db/queries/renewal-claims";
import { renewedExtraSlots, type SubscriptionRow, subscriptions } from "../../db/queries/subscriptions";
import type { CustomerReceipt } from "../adapters/cloudpayments/receipt";
import type { AppContext } from "../context";
import { settleSuccess } from "../modules/payments/notifications/settlement";
import { accountIdOf } from "../modules/payments/orders/orders";
import { buildReceipt } from "../modules/payments/receipts/receipt";
import { billingTurn, devicePurchaseHoldMs } from "../modules/subscriptions/billing-turn";
import { endWithoutCard } from "../modules/subscriptions/ending";
import { nextChargeAmounts } from "../modules/subscriptions/next-charge";
import { noticeGate } from "../modules/subscriptions/renewal-notices";

/**
 * A renewal attempt committed under a pass's lease, to be sent to the gateway, with the
 * 54-FZ receipt it is sent with (built at the claim from the batch's e-mails; absent on an
 * attempt put together elsewhere, which then builds its own with receiptOf).
 */
export type Attempt = { payment: PaymentRow; subscription: SubscriptionRow; receipt?: CustomerReceipt };

/**
 * Claims up to `limit` due subscriptions for this pass: finding them and committing their
 * attempts under the lease happen in one transaction, and a subscription with a pending
 * attempt is not due, so each due renewal is claimed by exactly one pass. The batch is
 * a few statements whatever its size: the due rows, taken with their row locks; what the
 * claim needs of them (attempts so far, the e-mail), their prices and their notices, each
 * read once for the batch; then one insert of every attempt.
 *
 * Claims do not take turns with one another. On PostgreSQL (READ COMMITTED) each takes its
 * due rows locked and skips rows another holds (FOR UPDATE SKIP LOCKED), so instances
 * claim disjoint sets without waiting; the read after the locks runs on a fresh snapshot
 * and drops a row whose attempt a claim committed between this claim's look and its lock
 * (payments_one_pending_renewal stops a second pending attempt should anything slip by).
 * A cancellation either commits before the claim locks the row (the claim then sees it
 * CANCELED) or waits for the claim to commit. The billing turn is held shared: card
 * removal, account deletion, device slot purchases and notice batches hold it alone, so
 * each of them still comes wholly before or after a claim. SQLite has one writer: the
 * claim is an ordinary transaction. Free and card-less renewals are settled at once; the
 * rest are returned to be charged, longest due first.
 */
export async function claimDue(
  context: Pick<AppContext, "database" | "clock" | "config">,
  owner: string,
  limit: number,
) {
  const { database, clock } = context;
  // Counts are returned rather than added up in the body, which PostgreSQL may run twice.
  return database.inTurn(
    billingTurn,
    async () => {
      const now = clock.now();
      // A subscription whose device slot is being bought waits for the next pass: its price
      // and notice change when the slot settles (renoticeRaisedCharge).
      const holdSince = now - devicePurchaseHoldMs;
      const taken = await subscriptions.due(database, now, limit, holdSince);
      if (taken.length === 0) return { toCharge: [] as Attempt[], dueCount: 0, free: 0 };
      const facts = new Map(
        (
          await renewalClaims.facts(
            database,
            taken.map((subscription) => subscription.id),
            holdSince,
          )
        ).map((row) => [row.id, row]),
      );
      const due = taken.filter((subscription) => facts.get(subscription.id)?.busy === 0);
      // Every amount of the batch is priced before anything in it changes: an invitee whose
      // own renewal or expiry falls in the same pass counts toward its inviter as it stood
      // when the pass began, whatever the order of the rows.
      const prices = await nextChargeAmounts(database, due, now);
      const notices = new Map(
        (
          await renewalClaims.latestNotices(
            database,
            due.map((subscription) => subscription.id),
          )
        ).map((notice) => [notice.subscription_id, notice]),
      );
      const attempts: NewRenewalAttempt[] = [];
      const claimed = new Map<string, SubscriptionRow>();
      for (const subscription of due) {
        let amount = prices.get(subscription.id) ?? 0;
        if (amount > 0 && !subscription.card_token) {
          // No saved card (the customer removed it, DESIGN §13(b)): nothing may be charged,
          // so no attempt, no decline and no dunning; the paid period simply ends.
          await endWithoutCard(database, subscription, now);
          continue;
        }
        if (amount > 0) {
          // DESIGN §13(a): only after a notice that went out 24 h to 7 days ago, and never
          // more than it stated; otherwise the charge moves (noticeGate).
          const gate = await noticeGate(context, subscription, amount, notices.get(subscription.id), now);
          if (!gate.chargeable) continue;
          amount = Math.min(amount, gate.cap);
        }
        const periodIndex = subscription.next_period_index;
        const attempt = (facts.get(subscription.id)?.attempts ?? 0) + 1;
        const invoiceId = `renewal-${subscription.id}-${periodIndex}-${attempt}`;
        claimed.set(invoiceId, subscription);
        attempts.push({
          user_id: subscription.user_id,
          subscription_id: subscription.id,
          invoice_id: invoiceId,
          account_id: accountIdOf(subscription.user_id),
          amount,
          currency: subscription.currency,
          description: `Kannt subscription, ${subscription.tariff_months} month(s)`,
          period_index: periodIndex,
          attempt,
          // What the period buys, so its receipt (and a refund's) names it.
          tariff_months: subscription.tariff_months,
          extra_devices: renewedExtraSlots(subscription),
          // A free one is settled below, in this transaction: no lease needed.
          claimed_by: amount > 0 ? owner : null,
          provider: subscription.saved_provider,
          method: subscription.saved_method,
        });
      }
      const inserted = new Map(
        (await payments.insertRenewalAttempts(database, attempts, now)).map((payment) => [
          payment.invoice_id,
          payment,
        ]),
      );
      const toCharge: Attempt[] = [];
      let free = 0;
      for (const [invoiceId, subscription] of claimed) {
        const payment = inserted.get(invoiceId);
        if (!payment) throw new Error(`renewal attempt ${invoiceId} was not inserted`);
        if (payment.amount === 0) {
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
          const email = facts.get(subscription.id)?.email ?? null;
          toCharge.push({
            payment,
            subscription,
            receipt: buildReceipt(payment, email, context.config.receipts),
          });
        }
      }
      return { toCharge, dueCount: taken.length, free };
    },
    "shared",
  );
}
