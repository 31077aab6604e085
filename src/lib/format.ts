import { formatDate as formatDateOn } from "../../core/date-time";
import type { Currency } from "../../core/money";
import { formatMoney } from "../../core/money";

export { kazakhDate } from "../../core/date-time";

/** "21 November 2026" in the interface language, on the device's clock ("" for no date). */
export function formatDate(iso: string | null | undefined, language: string): string {
  return iso ? formatDateOn(iso, language) : "";
}

/** Amounts from the API are in currency units (the widget's unit); the UI formats minor units. */
export function formatUnits(units: number, currency: Currency): string {
  return formatMoney(Math.round(units * 100), currency);
}

export const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;
