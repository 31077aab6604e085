import type { Currency } from "../../core/money";
import type { PaymentProvider } from "../../core/payment-methods";
import type { Database } from "../database";
import { statement } from "../database";

/** A payment the bank took for an order already paid (migration 0029): it goes back at once. */
export type DuplicatePaymentRow = {
  transaction_id: string;
  payment_id: number;
  provider: PaymentProvider;
  amount: number;
  currency: Currency;
  refunded_at: number | null;
  refund_claim: string | null;
  refund_claimed_at: number | null;
  created_at: number;
};

export const duplicatePayments = {
  /** Kept once per bank transaction, however often its notification comes. */
  record: (
    db: Database,
    duplicate: Pick<
      DuplicatePaymentRow,
      "transaction_id" | "payment_id" | "provider" | "amount" | "currency"
    >,
    now: number,
  ) =>
    statement(
      db,
      `INSERT INTO duplicate_payments (transaction_id, payment_id, provider, amount, currency, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ).run(
      duplicate.transaction_id,
      duplicate.payment_id,
      duplicate.provider,
      duplicate.amount,
      duplicate.currency,
      now,
    ),

  byTransaction: (db: Database, transactionId: string) =>
    statement<DuplicatePaymentRow, [string]>(
      db,
      "SELECT * FROM duplicate_payments WHERE transaction_id = ?",
    ).get(transactionId),

  /** Not yet refunded, and claimed by nobody alive. */
  toRefund: (db: Database, staleBefore: number, limit: number) =>
    statement<DuplicatePaymentRow, [number, number]>(
      db,
      `SELECT * FROM duplicate_payments WHERE refunded_at IS NULL
         AND (refund_claim IS NULL OR refund_claimed_at < ?) ORDER BY created_at LIMIT ?`,
    ).all(staleBefore, limit),

  claim: async (db: Database, transactionId: string, claim: string, now: number, staleBefore: number) =>
    (
      await statement(
        db,
        `UPDATE duplicate_payments SET refund_claim = ?, refund_claimed_at = ?
         WHERE transaction_id = ? AND refunded_at IS NULL AND (refund_claim IS NULL OR refund_claimed_at < ?)`,
      ).run(claim, now, transactionId, staleBefore)
    ).changes,

  release: (db: Database, transactionId: string, claim: string) =>
    statement(
      db,
      `UPDATE duplicate_payments SET refund_claim = NULL, refund_claimed_at = NULL
       WHERE transaction_id = ? AND refund_claim = ?`,
    ).run(transactionId, claim),

  /** Refunded: by our call's answer or the provider's Refund notification, whichever came first. */
  markRefunded: (db: Database, transactionId: string, now: number) =>
    statement(
      db,
      `UPDATE duplicate_payments SET refunded_at = COALESCE(refunded_at, ?), refund_claim = NULL,
         refund_claimed_at = NULL WHERE transaction_id = ?`,
    ).run(now, transactionId),
};
