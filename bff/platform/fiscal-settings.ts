import { oneOf } from "./config-values";

/**
 * The merchant's fiscal settings for 54-FZ receipts (DESIGN §13): which tax regime the
 * receipts state and which VAT rate every item carries. The values are CloudKassir's
 * codes, which CloudPayments takes in `CustomerReceipt`.
 */

/** 0 ОСН, 1 УСН «доходы», 2 УСН «доходы минус расходы», 3 ЕНВД, 4 ЕСХН, 5 патент. */
export const taxationSystems = [0, 1, 2, 3, 4, 5] as const;
export type TaxationSystem = (typeof taxationSystems)[number];

/**
 * Plain rates in percent (0, 5, 7, 10, 20, 22) and the "calculated" rates 5/105, 7/107,
 * 10/110, 20/120, 22/122 written as 105 … 122; null is "без НДС" (not liable to VAT),
 * which is not the same as 0 %.
 */
export const vatRates = [0, 5, 7, 10, 20, 22, 105, 107, 110, 120, 122] as const;
export type VatRate = (typeof vatRates)[number] | null;

export type ReceiptSettings = { taxationSystem: TaxationSystem; vat: VatRate };

/** УСН «доходы» is what a small online service most often runs on; "без НДС" goes with it. */
export const defaultReceiptSettings: ReceiptSettings = { taxationSystem: 1, vat: null };

export function parseTaxationSystem(raw: string | undefined): TaxationSystem {
  return oneOf("TAXATION_SYSTEM", raw, taxationSystems, {
    fallback: defaultReceiptSettings.taxationSystem,
    accepts: "one of 0 (ОСН), 1 (УСН доходы), 2 (УСН доходы минус расходы), 3 (ЕНВД), 4 (ЕСХН), 5 (патент)",
  });
}

export function parseVat(raw: string | undefined): VatRate {
  // "без НДС" is written as a word, in any letter case; the rates as their numbers.
  if (raw?.toLowerCase() === "none") return null;
  return oneOf("RECEIPT_VAT", raw, vatRates, {
    fallback: defaultReceiptSettings.vat,
    accepts: `"none" (без НДС) or one of ${vatRates.join(", ")} (105…122 are the calculated rates 5/105…22/122)`,
  });
}
