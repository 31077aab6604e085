import { toCurrencyUnits } from "../../../core/money";
import type { Database } from "../../../db/database";
import { unboundPurchases as purchases } from "../../../db/queries/unbound-purchases";

/** At most this many beside a search's customers: a search that finds more is too vague to act on. */
const shown = 10;

/**
 * Paid anonymous purchases (/instantPay) not attached to any account yet: their buyer
 * declined the binding dialog, changed browsers or lost the page. Support finds one by
 * the e-mail the payer gave the gateway (any part, any case) or by its transaction id,
 * the number on the bank's receipt (docs/money.md). Only unattached, unrefunded
 * purchases are looked at: the partial index holds just those.
 */
export async function unboundPurchases(database: Database, searchPart: string) {
  const part = searchPart.trim();
  if (!part) return [];
  const like = `%${part.replace(/[%_\\]/g, (character) => `\\${character}`)}%`;
  const rows = await purchases.find(database, part, like, shown);
  return rows.map((row) => ({
    transactionId: row.transaction_id,
    amount: toCurrencyUnits(row.amount),
    currency: row.currency,
    isTrial: row.is_trial === 1,
    tariffMonths: row.tariff_months,
    trialDays: row.trial_days,
    email: row.payer_email,
    paidAt: new Date(row.updated_at).toISOString(),
  }));
}
