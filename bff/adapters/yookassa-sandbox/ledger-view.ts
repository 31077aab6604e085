import type { Database } from "bun:sqlite";
import {
  yooKassaLedgerDeliveries,
  yooKassaLedgerMethods,
  yooKassaLedgerPayments,
  yooKassaLedgerRefunds,
} from "../../../db/queries/yookassa-ledger";

const iso = (time: number) => new Date(time).toISOString();
const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

function deliveriesOf(ledger: Database, objectId: string) {
  return yooKassaLedgerDeliveries.of(ledger, objectId).map((row) => ({
    event: row.event,
    attempt: row.attempt,
    status: row.status,
    error: row.error,
    dateTime: iso(row.created_at),
  }));
}

/**
 * Everything the sandbox did, for tests and the demo (GET /api/dev/sandbox/yookassa/ledger):
 * each payment with its receipt (YooKassa's receipt object as sent), how it was paid, its
 * refunds with theirs, and every notification send and the shop's answer. Amounts in
 * currency units; times on the app's (test) clock. `accountId` keeps the payments whose
 * metadata names that account.
 */
export function ledgerEntries(ledger: Database, accountId?: string) {
  return yooKassaLedgerPayments
    .all(ledger)
    .map((payment) => {
      const metadata = (parsed(payment.metadata) ?? {}) as Record<string, string>;
      const method = payment.payment_method_id
        ? yooKassaLedgerMethods.byId(ledger, payment.payment_method_id)
        : undefined;
      return {
        id: payment.id,
        status: payment.status,
        amount: payment.amount / 100,
        currency: payment.currency,
        description: payment.description,
        metadata,
        method: method?.type ?? payment.method_type,
        paymentMethodId: payment.payment_method_id,
        isMethodSaved: method?.saved === 1,
        isSavedMethodCharge: payment.confirmation_type === null,
        cancellationReason: payment.cancellation_reason,
        receipt: parsed(payment.receipt),
        refundedAmount: payment.refunded_amount / 100,
        dateTime: iso(payment.created_at),
        refunds: yooKassaLedgerRefunds.ofPayment(ledger, payment.id).map((refund) => ({
          id: refund.id,
          amount: refund.amount / 100,
          receipt: parsed(refund.receipt),
          dateTime: iso(refund.created_at),
          notifications: deliveriesOf(ledger, refund.id),
        })),
        notifications: deliveriesOf(ledger, payment.id),
      };
    })
    .filter((entry) => accountId === undefined || entry.metadata.account_id === accountId);
}
