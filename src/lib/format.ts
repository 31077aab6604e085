import type { Currency } from "./money";
import { formatMoney } from "./money";

const kazakhMonths = [
  "қаңтар",
  "ақпан",
  "наурыз",
  "сәуір",
  "мамыр",
  "маусым",
  "шілде",
  "тамыз",
  "қыркүйек",
  "қазан",
  "қараша",
  "желтоқсан",
];

/**
 * "2026 ж. 21 желтоқсан", CLDR's Kazakh long date. Chromium ships no Kazakh date data
 * (it says "2026 M12 21"), so kk is written from this table when Intl has no month name.
 */
export function kazakhDate(date: Date): string {
  return `${date.getFullYear()} ж. ${date.getDate()} ${kazakhMonths[date.getMonth()]}`;
}

/** "21 November 2026" in the interface language. */
export function formatDate(iso: string | null | undefined, language: string): string {
  if (!iso) return "";
  const date = new Date(iso);
  const format = new Intl.DateTimeFormat(language, { day: "numeric", month: "long", year: "numeric" });
  if (language === "kk") {
    const month = format.formatToParts(date).find((part) => part.type === "month")?.value ?? "";
    if (!kazakhMonths.includes(month.toLowerCase())) return kazakhDate(date);
  }
  return format.format(date);
}

/** Amounts from the API are in currency units (the widget's unit); the UI formats minor units. */
export function formatUnits(units: number, currency: Currency): string {
  return formatMoney(Math.round(units * 100), currency);
}

export const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;
