import type { Currency } from "./money";
import { formatMoney } from "./money";

/** "21 November 2026" in the interface language. */
export function formatDate(iso: string | null | undefined, language: string): string {
  if (!iso) return "";
  return new Intl.DateTimeFormat(language, { day: "numeric", month: "long", year: "numeric" }).format(
    new Date(iso),
  );
}

/** Amounts from the API are in currency units (the widget's unit); the UI formats minor units. */
export function formatUnits(units: number, currency: Currency): string {
  return formatMoney(Math.round(units * 100), currency);
}

export const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;
