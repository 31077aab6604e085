import { type DuplicatePaymentRow, duplicatePayments } from "../../../../db/queries/duplicate-payments";
import { type PaymentRow, payments } from "../../../../db/queries/payments";
import { queueRefundMade } from "../../mail/events";
import { providerOf } from "../providers/provider-of";
import { receiptOf } from "../receipts/receipt";
import {
  type ClaimedRefunds,
  type RefundContext,
  runClaimedRefunds,
  runClaimedRefundsNow,
} from "./claimed-refunds";

/** A second payment of one order, with the order it paid again. */
type Duplicate = { duplicate: DuplicatePaymentRow; order: PaymentRow | undefined };

/**
 * Every payment the bank took for an order already paid (an SBP QR paid twice) goes back:
 * it bought nothing.
 */
const duplicates = (context: RefundContext): ClaimedRefunds<Duplicate> => {
  const { database } = context;
  return {
    what: "duplicate payment",
    logFields: ({ duplicate }) => ({ transactionId: duplicate.transaction_id }),
    due: async (staleBefore, limit) => {
      const due = await duplicatePayments.toRefund(database, staleBefore, limit);
      return Promise.all(
        due.map(async (duplicate) => ({
          duplicate,
          order: await payments.byId(database, duplicate.payment_id),
        })),
      );
    },
    claim: ({ duplicate }, claim, now, staleBefore) =>
      duplicatePayments.claim(database, duplicate.transaction_id, claim, now, staleBefore),
    send: async ({ duplicate, order }) => {
      if (!order) throw new Error(`order ${duplicate.payment_id} of a duplicate payment is gone`);
      // Its receipt states what goes back: the order's service, at the duplicate's amount.
      // The order's method is the duplicate's: both paid the same QR (or the same widget).
      return providerOf(context.payments, duplicate.provider).refund(
        { transactionId: duplicate.transaction_id, method: order.method },
        duplicate.amount,
        await receiptOf(context, order, duplicate.amount),
      );
    },
    release: async ({ duplicate }, claim) => {
      await duplicatePayments.release(database, duplicate.transaction_id, claim);
    },
    record: async ({ duplicate, order }, _refunded, now) => {
      await duplicatePayments.markRefunded(database, duplicate.transaction_id, now);
      if (order?.user_id == null) return;
      await queueRefundMade(
        database,
        order.user_id,
        {
          total: { amount: duplicate.amount, currency: duplicate.currency },
          payments: 1,
          eventKey: `duplicate:${duplicate.transaction_id}`,
          methods: [order.method],
          // The order it paid again keeps what it bought.
          accessEnded: false,
        },
        now,
      );
    },
  };
};

/** Called by every renewal pass: answers how many went back. */
export const refundDuplicatePayments = (context: RefundContext) =>
  runClaimedRefunds(context, duplicates(context));

/** Right after the Pay that brought one. */
export const refundDuplicatePaymentsNow = (context: RefundContext) =>
  runClaimedRefundsNow(context, duplicates(context));
