import type { TranslationKey } from "../../core/i18n";
import type { ChargeTerms } from "./charge-terms";
import { formatDate, formatUnits } from "./format";
import { priceLabelKey } from "./price-label";

type Translate = (key: TranslationKey, values?: Record<string, string | number>) => string;

export type TermsText = {
  /** One sentence: what is paid now, when and how much the next charges are. */
  summary: string;
  /** The auto-charge consent, naming the same facts. */
  consent: string;
  /** The pay button's label. */
  payLabel: string;
  /** Without a trial: why, shown above the summary. */
  noTrialReason?: string;
};

/**
 * "30 days", "30 дней", "30天", "30 күн": the catalogue's words, its `{{count|…}}` forms chosen
 * by CLDR's plural rules (the browser's unit names cannot serve: Chromium has none for Kazakh).
 */
export const formatDays = (days: number, t: Translate): string => t("common.days", { count: days });

/** The purchase screens' sentences from the terms, in the interface language. */
export function describeTerms(terms: ChargeTerms, t: Translate, language: string): TermsText {
  const money = (units: number) => formatUnits(units, terms.currency);
  const values = {
    payNow: money(terms.payNow),
    days: formatDays(terms.trialDays, t),
    // A date split over two lines ("2026 / ж. 21 желтоқсан") reads wrong: keep it on one.
    date: formatDate(terms.nextCharge.date, language).replace(/ /g, "\u00a0"),
    amount: money(terms.nextCharge.amount),
    period: t(priceLabelKey(terms.nextCharge.amount, terms.periodMonths)),
  };
  if (terms.hasTrial) {
    return {
      summary: t("purchase.termsTrial", values),
      consent: t("purchase.consentCharge", values),
      payLabel: t("purchase.buy", { price: values.payNow }),
    };
  }
  return {
    summary: t("purchase.termsNoTrial", values),
    consent: t("purchase.consentChargeNow", values),
    payLabel: t("purchase.buy", { price: values.payNow }),
    noTrialReason: terms.noTrialReason ?? t("purchase.noTrialReason"),
  };
}
