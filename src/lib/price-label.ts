export type PriceLabelKey = "prices.perMonth" | "prices.perQuarter" | "prices.perHalfYear" | "prices.perYear";

const byMonths: Record<number, PriceLabelKey> = {
  1: "prices.perMonth",
  3: "prices.perQuarter",
  6: "prices.perHalfYear",
  12: "prices.perYear",
};

/**
 * The suffix after a price. The shop now says the period (`periodMonths`), so that
 * wins; without it the spec's rule on the rouble amount applies: under 600 is per
 * month, exactly 600 is per half-year, anything else per year.
 */
export function priceLabelKey(monthlyPayment: number, periodMonths?: number): PriceLabelKey {
  const known = periodMonths === undefined ? undefined : byMonths[periodMonths];
  if (known) return known;
  if (monthlyPayment < 600) return "prices.perMonth";
  if (monthlyPayment === 600) return "prices.perHalfYear";
  return "prices.perYear";
}
