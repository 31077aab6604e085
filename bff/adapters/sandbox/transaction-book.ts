import type { Database } from "bun:sqlite";
import { ledgerTransactions } from "../../../db/queries/sandbox-ledger";
import type { Clock } from "../../platform/clock";
import type { CustomerReceipt } from "../cloudpayments/receipt";
import type { CardData } from "./card-book";
import type { TransactionRow } from "./transaction-view";

/** What a transaction moves, and for whom. */
export type Booking = { invoice_id: string; account_id: string; amount: number; currency: string };

export type TransactionDetails = {
  /** The id an SBP QR reserved for its first payment; otherwise the next one. */
  id?: number;
  /** "card" unless said. */
  method?: "card" | "sbp";
  token?: string | null;
  card?: CardData;
  reasonCode?: number;
  reason?: string;
  refundOf?: number;
  receipt?: CustomerReceipt | null;
};

/**
 * The ledger holds whole minor units in an INTEGER column; an amount such as 1e308
 * (Infinity once in kopecks) or a negative one is refused, as the real gateway refuses it,
 * instead of failing the insert.
 */
export const isStorableAmount = (minorUnits: number) => Number.isSafeInteger(minorUnits) && minorUnits >= 0;
export const invalidAmountMessage = "Amount must be a sum of money of 0 or more.";

/** Writes the bank's transactions, each dated on the (test) clock and with the receipt it carried. */
export function createTransactionBook(ledger: Database, clock: Clock) {
  const insert = ledgerTransactions.prepareInsert(ledger);
  return (
    kind: "payment" | "refund",
    booking: Booking,
    status: TransactionRow["status"],
    details: TransactionDetails = {},
  ): TransactionRow => {
    const row = insert.get(
      details.id ?? null,
      kind,
      details.method ?? "card",
      booking.invoice_id,
      booking.account_id,
      booking.amount,
      booking.currency,
      status,
      details.token ?? null,
      details.card?.firstSix ?? null,
      details.card?.lastFour ?? null,
      details.card?.expiry ?? null,
      details.reasonCode ?? null,
      details.reason ?? null,
      details.refundOf ?? null,
      details.receipt ? JSON.stringify(details.receipt) : null,
      clock.now(),
    );
    if (!row) throw new Error("ledger insert failed");
    return row;
  };
}

export type RecordTransaction = ReturnType<typeof createTransactionBook>;
