import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";

type UnboundRow = {
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

/** At most this many beside a search's customers: a search that finds more is too vague to act on. */
const shown = 10;

/**
 * Paid anonymous purchases (/instantPay) not attached to any account yet: their buyer
 * declined the binding dialog, changed browsers or lost the page. Support finds one by
 * the e-mail the payer gave the gateway (any part, any case) or by its transaction id,
 * the number on the bank's receipt (README, Money rules). Only unattached, unrefunded
 * purchases are looked at: the partial index holds just those.
 */
export async function unboundPurchases(database: Database, searchPart: string) {
  const part = searchPart.trim();
  if (!part) return [];
  const like = `%${part.replace(/[%_\\]/g, (character) => `\\${character}`)}%`;
  const rows = await statement<UnboundRow, [string, string]>(
    database,
    `SELECT transaction_id, amount, currency, is_trial, tariff_months, trial_days, payer_email, created_at, updated_at
       FROM payments
      WHERE prepaid_token IS NOT NULL AND user_id IS NULL AND status = 'completed'
        AND (transaction_id = ? OR lower(payer_email) LIKE lower(?) ESCAPE '\\')
      ORDER BY created_at DESC LIMIT ${shown}`,
  ).all(part, like);
  return rows.map((row) => ({
    transactionId: row.transaction_id,
    amount: row.amount / 100,
    currency: row.currency,
    isTrial: row.is_trial === 1,
    tariffMonths: row.tariff_months,
    trialDays: row.trial_days,
    email: row.payer_email,
    paidAt: new Date(row.updated_at).toISOString(),
  }));
}
