import type { Database } from "bun:sqlite";
import { ledgerSbpRefunds } from "../../../db/queries/sandbox-ledger-sbp";
import type { Notify } from "./notifier";
import type { Settlements } from "./settlements";
import { notificationFields } from "./transaction-view";

/**
 * Refunds of SBP payments. Money goes back by an SBP transfer the payer's bank completes
 * after the gateway answered: the answer says Success (the refund is accepted), the ledger
 * books it Pending, and it is done, with its Refund notification, a moment later
 * (settlements.ts), as the real gateway does. A card's refund is done before its answer.
 */
export function createSbpRefunds(ledger: Database, bank: { notify: Notify; settlements: Settlements }) {
  const { notify, settlements } = bank;

  async function complete(refundId: number, paymentId: number): Promise<void> {
    const row = ledgerSbpRefunds.complete(ledger, refundId);
    if (!row) return;
    await notify("refund", {
      ...notificationFields(row, null),
      PaymentTransactionId: paymentId,
      TransactionId: row.id,
    });
  }

  return {
    /** `answered`: the refund is done once the call that asked for it was answered. */
    completeLater(refund: { id: number; paymentId: number }, answered: Promise<unknown>): void {
      settlements.schedule(answered, () => complete(refund.id, refund.paymentId));
    },

    /** Refunds a stopped bank left Pending are done once it is open again. */
    resumePending(): void {
      for (const { id, refund_of } of ledgerSbpRefunds.pending(ledger))
        settlements.schedule(Promise.resolve(), () => complete(id, refund_of));
    },
  };
}

export type SbpRefunds = ReturnType<typeof createSbpRefunds>;
