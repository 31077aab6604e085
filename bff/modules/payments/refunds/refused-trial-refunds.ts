import type { PaymentRow } from "../../../../db/queries/payments";
import { refunds } from "../../../../db/queries/refunds";
import { trials } from "../../../../db/queries/trials";
import type { AppContext } from "../../../context";
import { logger } from "../../../platform/logger";
import { randomToken } from "../../../platform/random";
import { queueRefundMade } from "../../mail/events";
import type { RefundOutcome } from "../providers/provider";
import { providerOf } from "../providers/provider-of";
import { receiptOf } from "../receipts/receipt";
import { noteRefundProgress } from "./refund-effects";
import { staleClaimMs } from "./refund-plan";

/** At most this many per call: a backlog is worked off over the following passes. */
const batchSize = 50;

type RefundContext = Pick<AppContext, "database" | "clock" | "config" | "payments">;

/**
 * Sends back every paid 1-unit trial that was refused its trial (orders/trial-at-pay.ts,
 * prepaid-binding.ts): the customer is never charged for nothing. Called right after the
 * Pay or the binding that refused it, and by every renewal pass, so a refund that did not
 * go out (a crash, the gateway down) goes out later. Each payment is claimed before the
 * gateway is called, as an operator refund claims it, so two callers never send one twice.
 */
export async function refundRefusedTrials(context: RefundContext): Promise<number> {
  const { database, clock } = context;
  const claim = randomToken(16);
  const claimed = await database.transaction(async () => {
    const now = clock.now();
    const due = await trials.refusedToRefund(database, now - staleClaimMs, batchSize);
    const taken: PaymentRow[] = [];
    for (const payment of due)
      if ((await refunds.claim(database, payment.id, claim, now, now - staleClaimMs)) === 1)
        taken.push(payment);
    return taken;
  });
  let refunded = 0;
  for (const payment of claimed) {
    const transactionId = payment.transaction_id ?? "";
    let taken: Extract<RefundOutcome, { isRefunded: true }> | undefined;
    try {
      // Back through the provider that took it (DESIGN §6).
      const answer = await providerOf(context.payments, payment.provider).refund(
        { transactionId, method: payment.method },
        payment.amount,
        await receiptOf(context, payment),
      );
      if (answer.isRefunded) taken = answer;
      else
        logger.warn("the provider refused to refund a refused trial; tried again later", {
          paymentId: payment.id,
          message: answer.reason,
        });
    } catch (error) {
      // The outcome is unknown: the claim stays until it goes stale, then the next pass asks again.
      logger.error("refund of a refused trial failed", { paymentId: payment.id, error: String(error) });
      continue;
    }
    await database.transaction(async () => {
      const now = clock.now();
      if (!taken) {
        await refunds.release(database, payment.id, claim);
        return;
      }
      await refunds.recordRefunded(database, payment.id, now);
      await noteRefundProgress(database, payment.id, taken);
      if (payment.user_id !== null)
        await queueRefundMade(
          database,
          payment.user_id,
          {
            total: { amount: payment.amount, currency: payment.currency },
            payments: 1,
            eventKey: `refused-trial:${payment.id}`,
          },
          now,
        );
    });
    if (taken) refunded++;
  }
  return refunded;
}

/** After a Pay or a binding: a failure here is logged and left to the next renewal pass. */
export async function refundRefusedTrialsNow(context: RefundContext): Promise<void> {
  try {
    await refundRefusedTrials(context);
  } catch (error) {
    logger.error("refunding refused trials failed; the next renewal pass tries again", {
      error: String(error),
    });
  }
}
