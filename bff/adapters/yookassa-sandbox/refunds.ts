import type { Database } from "bun:sqlite";
import { yooKassaLedgerPayments, yooKassaLedgerRefunds } from "../../../db/queries/yookassa-ledger";
import type { Clock } from "../../platform/clock";
import { newRefundId } from "./ids";
import type { NotifyShop } from "./notifier";
import { refundObject } from "./objects";
import type { Made } from "./payments";
import type { Problem, RefundRequest } from "./requests";

/**
 * POST /v3/refunds: gives back part or all of a succeeded payment, never more than it took,
 * with the refund's receipt kept; the shop hears `refund.succeeded`. A refund of an SBP
 * payment goes back by SBP, a card's to the card: the sandbox keeps only the money.
 */
export function createRefundDesk(bank: { ledger: Database; clock: Clock; notify: NotifyShop }) {
  const { ledger, clock, notify } = bank;
  return {
    create(request: RefundRequest): Made | Problem {
      const payment = yooKassaLedgerPayments.byId(ledger, request.paymentId);
      if (!payment) return { parameter: "payment_id", description: "No payment has this id." };
      if (payment.status !== "succeeded")
        return { parameter: "payment_id", description: `A ${payment.status} payment cannot be refunded.` };
      if (request.currency !== payment.currency)
        return { parameter: "amount.currency", description: "A refund is in the payment's currency." };
      if (!yooKassaLedgerPayments.addRefund(ledger, payment.id, request.amount))
        return { parameter: "amount", description: "The refund is more than is left of the payment." };
      const refund = {
        id: newRefundId(),
        payment_id: payment.id,
        status: "succeeded" as const,
        amount: request.amount,
        currency: request.currency,
        description: request.description,
        receipt: request.receipt === null ? null : JSON.stringify(request.receipt),
        created_at: clock.now(),
      };
      yooKassaLedgerRefunds.insert(ledger, refund);
      return { id: refund.id, afterwards: () => notify("refund.succeeded", refundObject(refund)) };
    },
  };
}
