export type Currency = "RUB" | "KZT";

const symbols: Record<Currency, string> = { RUB: "₽", KZT: "₸" };

/** Kopecks in a rouble, tiyn in a tenge. */
const minorUnitsPerUnit = 100;

/**
 * Minor units, which every sum inside is kept and added in, to the currency units the
 * answers and the gateway state: 15 000 → 150, 1 → 0.01.
 */
export const toCurrencyUnits = (minorUnits: number): number => minorUnits / minorUnitsPerUnit;

/**
 * Currency units as the gateway, the widget or an answer state them back to minor units,
 * to the nearest one: 0.29 is 0.28999… in binary, so × 100 is 29 only once rounded.
 */
export const toMinorUnits = (units: number): number => Math.round(units * minorUnitsPerUnit);

/**
 * The same for an amount that must already be whole minor units (a receipt's lines): 1.005
 * or an amount beyond exact integers is undefined rather than quietly rounded.
 */
export function exactMinorUnits(units: number): number | undefined {
  const minor = toMinorUnits(units);
  return Math.abs(minor - units * minorUnitsPerUnit) < 1e-6 && Number.isSafeInteger(minor)
    ? minor
    : undefined;
}

/** Minor units rounded half up to whole currency units: 2 550 → 2 600, 2 549 → 2 500. */
export const roundToWholeUnits = (minorUnits: number): number =>
  Math.round(minorUnits / minorUnitsPerUnit) * minorUnitsPerUnit;

/**
 * `numerator / denominator` of an amount in minor units, rounded half up to whole currency
 * units (112.5 → 113, DESIGN §13), in integers so that a half is decided exactly whatever
 * the fraction: 1/3 of 450 is 150 and never 149.99… or 150.00…1.
 */
export function partOfAmount(amount: number, numerator: number, denominator: number): number {
  const part = amount * numerator; // minor units × denominator
  const unit = minorUnitsPerUnit * denominator; // one currency unit × denominator
  return Math.floor((part + unit / 2) / unit) * minorUnitsPerUnit;
}

/** `part` of `whole` in percent, unrounded: 1 of 12 is 8.33…, 1 of 4 exactly 25. */
export const asPercent = (part: number, whole: number): number => (part * 100) / whole;

/** A percent as the fraction the API's discounts are stated in (spec: `discount: 0.25`). */
export const percentToFraction = (percent: number): number => percent / 100;

/** Such a fraction back in percent, as a form or a screen states it. */
export const fractionToPercent = (fraction: number): number => fraction * 100;

/**
 * "1 080 ₽", "6 400 ₸": whole units with a no-break thin space between thousands,
 * the same in every interface language so prices read alike everywhere.
 */
export function formatMoney(minorUnits: number, currency: Currency): string {
  const units = toCurrencyUnits(minorUnits);
  const [whole = "0", fraction] = Math.abs(units)
    .toFixed(Number.isInteger(units) ? 0 : 2)
    .split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
  const sign = units < 0 ? "−" : "";
  return `${sign}${grouped}${fraction ? `,${fraction}` : ""}\u00a0${symbols[currency]}`;
}
