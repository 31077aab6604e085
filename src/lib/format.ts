import { type DateRole, formatDateAs, formatDate as formatDateOn } from "../../core/date-time";
import { type Currency, formatMoney, fractionToPercent, toMinorUnits } from "../../core/money";

export { kazakhDate } from "../../core/date-time";

/** "21 November 2026" in the interface language, on the device's clock ("" for no date). */
export function formatDate(iso: string | null | undefined, language: string): string {
  return iso ? formatDateOn(iso, language) : "";
}

/**
 * The same date where a text gives it a role (`{{until}}`, `{{on}}`, `{{since}}`): Kazakh puts
 * it in the case the sentence asks for (core/date-time.ts).
 */
export function formatDateFor(role: DateRole, iso: string | null | undefined, language: string): string {
  return iso ? formatDateAs(role, iso, language) : "";
}

/** The date where a text says "until" it (`{{until}}`): Kazakh puts it in the dative. */
export const formatUntil = (iso: string | null | undefined, language: string): string =>
  formatDateFor("until", iso, language);

/** Amounts from the API are in currency units (the widget's unit); the UI formats minor units. */
export function formatUnits(units: number, currency: Currency): string {
  return formatMoney(toMinorUnits(units), currency);
}

/**
 * The locale a number is written in. Kazakh writes numbers as Russian does (CLDR: a decimal
 * comma, groups by a no-break space), and Chromium has no Kazakh number data: asked for "kk"
 * it writes "2.1", so Kazakh numbers take Russian's rules.
 */
const numberLocale = (language: string) => (language === "kk" ? "ru" : language);

/**
 * "25%", or "8,3%" in Russian and Kazakh: a referral discount prorated per month may be a
 * fraction of a percent, shown to one decimal in the interface language.
 */
export const percent = (fraction: number, language = "en") =>
  `${new Intl.NumberFormat(numberLocale(language), { maximumFractionDigits: 1 }).format(fractionToPercent(fraction))}%`;
