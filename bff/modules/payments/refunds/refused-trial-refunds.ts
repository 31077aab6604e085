import type { PaymentRow } from "../../../../db/queries/payments";
import { refunds } from "../../../../db/queries/refunds";
import { trials } from "../../../../db/queries/trials";
import { queueRefundMade } from "../../mail/events";
import { providerOf } from "../providers/provider-of";
import { receiptOf } from "../receipts/receipt";
import {
  type ClaimedRefunds,
  type RefundContext,
  runClaimedRefunds,
  runClaimedRefundsNow,
} from "./claimed-refunds";
import { noteRefundProgress } from "./refund-effects";

/**
 * Every paid 1-unit trial that was refused its trial (orders/trial-at-pay.ts,
 * prepaid-binding.ts) goes back: the customer is never charged for nothing. Each payment
 * is claimed as an operator refund claims it, so the two never send one twice.
 */
const refusedTrials = (context: RefundContext): ClaimedRefunds<PaymentRow> => {
  const { database } = context;
  return {
    what: "refused trial",
    logFields: (payment) => ({ paymentId: payment.id }),
    due: (staleBefore, limit) => trials.refusedToRefund(database, staleBefore, limit),
    claim: (payment, claim, now, staleBefore) => refunds.claim(database, payment.id, claim, now, staleBefore),
    // Back through the provider that took it (DESIGN §6).
    send: async (payment) =>
      providerOf(context.payments, payment.provider).refund(
        { transactionId: payment.transaction_id ?? "", method: payment.method },
        payment.amount,
        await receiptOf(context, payment),
      ),
    release: async (payment, claim) => {
      await refunds.release(database, payment.id, claim);
    },
    record: async (payment, refunded, now) => {
      await refunds.recordRefunded(database, payment.id, now);
      await noteRefundProgress(database, payment.id, refunded);
      if (payment.user_id === null) return;
      await queueRefundMade(
        database,
        payment.user_id,
        {
          total: { amount: payment.amount, currency: payment.currency },
          payments: 1,
          eventKey: `refused-trial:${payment.id}`,
          methods: [payment.method],
          // The trial was refused: it never gave access to end.
          accessEnded: false,
        },
        now,
      );
    },
  };
};

/** Called by every renewal pass: answers how many went back. */
export const refundRefusedTrials = (context: RefundContext) =>
  runClaimedRefunds(context, refusedTrials(context));

/** Right after the Pay or the binding that refused a trial. */
export const refundRefusedTrialsNow = (context: RefundContext) =>
  runClaimedRefundsNow(context, refusedTrials(context));
