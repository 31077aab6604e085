export type Currency = "RUB" | "KZT";

const symbols: Record<Currency, string> = { RUB: "₽", KZT: "₸" };

/**
 * "1 080 ₽", "6 400 ₸": whole units with a no-break thin space between thousands,
 * the same in every interface language so prices read alike everywhere.
 */
export function formatMoney(minorUnits: number, currency: Currency): string {
  const units = minorUnits / 100;
  const [whole = "0", fraction] = Math.abs(units)
    .toFixed(Number.isInteger(units) ? 0 : 2)
    .split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
  const sign = units < 0 ? "−" : "";
  return `${sign}${grouped}${fraction ? `,${fraction}` : ""}\u00a0${symbols[currency]}`;
}
