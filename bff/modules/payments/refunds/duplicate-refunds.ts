import { duplicatePayments } from "../../../../db/queries/duplicate-payments";
import { payments } from "../../../../db/queries/payments";
import type { AppContext } from "../../../context";
import { logger } from "../../../platform/logger";
import { randomToken } from "../../../platform/random";
import { queueRefundMade } from "../../mail/events";
import { providerOf } from "../providers/provider-of";
import { receiptOf } from "../receipts/receipt";
import { staleClaimMs } from "./refund-plan";

/** At most this many per call: a backlog is worked off over the following passes. */
const batchSize = 50;

type RefundContext = Pick<AppContext, "database" | "clock" | "config" | "payments">;

/**
 * Sends back every payment the bank took for an order already paid (an SBP QR paid twice):
 * it bought nothing. Called right after the Pay that brought it, and by every renewal pass,
 * so one that did not go out (a crash, the provider down) goes out later. Each is claimed
 * before the provider is asked, so two callers never send one twice. Answers how many went back.
 */
export async function refundDuplicatePayments(context: RefundContext): Promise<number> {
  const { database, clock } = context;
  const claim = randomToken(16);
  const claimed = await database.transaction(async () => {
    const now = clock.now();
    const due = await duplicatePayments.toRefund(database, now - staleClaimMs, batchSize);
    const taken = [];
    for (const duplicate of due)
      if (
        (await duplicatePayments.claim(
          database,
          duplicate.transaction_id,
          claim,
          now,
          now - staleClaimMs,
        )) === 1
      )
        taken.push(duplicate);
    return taken;
  });
  let refunded = 0;
  for (const duplicate of claimed) {
    const order = await payments.byId(database, duplicate.payment_id);
    let isRefunded = false;
    try {
      if (!order) throw new Error(`order ${duplicate.payment_id} of a duplicate payment is gone`);
      // Its receipt states what goes back: the order's service, at the duplicate's amount.
      // The order's method is the duplicate's: both paid the same QR (or the same widget).
      const answer = await providerOf(context.payments, duplicate.provider).refund(
        { transactionId: duplicate.transaction_id, method: order.method },
        duplicate.amount,
        await receiptOf(context, order, duplicate.amount),
      );
      isRefunded = answer.isRefunded;
      if (!answer.isRefunded)
        logger.warn("the provider refused to refund a duplicate payment; tried again later", {
          transactionId: duplicate.transaction_id,
          message: answer.reason,
        });
    } catch (error) {
      // The outcome is unknown: the claim stays until it goes stale, then the next pass asks again.
      logger.error("refund of a duplicate payment failed", {
        transactionId: duplicate.transaction_id,
        error: String(error),
      });
      continue;
    }
    await database.transaction(async () => {
      const now = clock.now();
      if (!isRefunded) {
        await duplicatePayments.release(database, duplicate.transaction_id, claim);
        return;
      }
      await duplicatePayments.markRefunded(database, duplicate.transaction_id, now);
      if (order?.user_id != null)
        await queueRefundMade(
          database,
          order.user_id,
          {
            total: { amount: duplicate.amount, currency: duplicate.currency },
            payments: 1,
            eventKey: `duplicate:${duplicate.transaction_id}`,
          },
          now,
        );
    });
    if (isRefunded) refunded++;
  }
  return refunded;
}

/** After a Pay: a failure here is logged and left to the next renewal pass. */
export async function refundDuplicatePaymentsNow(context: RefundContext): Promise<void> {
  try {
    await refundDuplicatePayments(context);
  } catch (error) {
    logger.error("refunding duplicate payments failed; the next renewal pass tries again", {
      error: String(error),
    });
  }
}
