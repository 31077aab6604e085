import type { Database } from "bun:sqlite";
import { ledgerDeliveries } from "../../../db/queries/sandbox-ledger";
import type { Clock } from "../../platform/clock";
import type { NotificationKind } from "./notifier";

/** One attempt to deliver a notification, as the bank's ledger keeps it. */
export type DeliveryAttempt = {
  kind: NotificationKind;
  /** The transaction it tells of; none yet for a Check (linked once the payment is booked). */
  transactionId: number | null;
  invoiceId: string;
  attempt: number;
  /** The shop's HTTP status; null when it gave no answer (a network error, a timeout). */
  status: number | null;
  /** The `code` of the shop's answer; null when there was none to read. */
  code: number | null;
  error: string | null;
};

/**
 * Every notification the sandbox sent and what came back, attempt by attempt, in the
 * bank's own ledger: a redelivery after a 5xx or no answer shows there as a second line,
 * and each line of GET /api/dev/sandbox/ledger lists those about its transaction.
 */
export function createDeliveryLog(ledger: Database, clock: Clock) {
  const { insert, linkCheck, ofTransaction } = ledgerDeliveries.prepare(ledger);
  return {
    record(attempt: DeliveryAttempt): void {
      insert.run(
        attempt.kind,
        attempt.transactionId,
        attempt.invoiceId,
        attempt.attempt,
        attempt.status,
        attempt.code,
        attempt.error,
        clock.now(),
      );
    },
    /** The Check sent for an invoice before its payment was booked belongs to that payment. */
    linkCheck(invoiceId: string, transactionId: number): void {
      linkCheck.run(transactionId, invoiceId);
    },
    /** What GET /api/dev/sandbox/ledger shows of a transaction's notifications, in the order sent. */
    of(transactionId: number) {
      return ofTransaction.all(transactionId).map((row) => ({
        kind: row.kind,
        attempt: row.attempt,
        status: row.status,
        code: row.code,
        error: row.error,
        dateTime: new Date(row.created_at).toISOString(),
      }));
    },
  };
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;
