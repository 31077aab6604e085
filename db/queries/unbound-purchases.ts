import type { Database } from "../database";
import { statement } from "../database";

export type UnboundPurchaseRow = {
  transaction_id: string;
  amount: number;
  currency: string;
  is_trial: number;
  tariff_months: number | null;
  trial_days: number | null;
  payer_email: string | null;
  created_at: number;
  updated_at: number;
};

export const unboundPurchases = {
  /**
   * Paid anonymous purchases not attached to any account, unrefunded (the partial index
   * holds just those), by transaction id or a LIKE of the payer's e-mail; newest first.
   * `limit` is written into the text: one fixed number, one prepared statement.
   */
  find: (db: Database, transactionId: string, emailLike: string, limit: number) =>
    statement<UnboundPurchaseRow, [string, string]>(
      db,
      `SELECT transaction_id, amount, currency, is_trial, tariff_months, trial_days, payer_email, created_at, updated_at
       FROM payments
      WHERE prepaid_token IS NOT NULL AND user_id IS NULL AND status = 'completed'
        AND (transaction_id = ? OR lower(payer_email) LIKE lower(?) ESCAPE '\\')
      ORDER BY created_at DESC LIMIT ${limit}`,
    ).all(transactionId, emailLike),
};
