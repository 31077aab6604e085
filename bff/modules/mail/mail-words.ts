import { formatDate, formatDateTime, formatDayMonth } from "../../../core/date-time";
import { type TranslationKey, translator } from "../../../core/i18n";
import type { Language } from "../../../core/languages";
import { formatMoney } from "../../../core/money";
import type { Money } from "./kinds";

type Translate = (key: TranslationKey, values?: Record<string, string | number>) => string;

/** "heading" for "mail.trial_started.heading": the parts core/i18n holds for one kind (or "common"). */
export type MailPart<Group extends string, Key = TranslationKey> = Key extends `mail.${Group}.${infer Part}`
  ? Part
  : never;

/**
 * One mail language: its words, from the one catalogue (core/i18n, `mail.*` and the site's
 * own button names), and how it writes the facts, on the customer's clock (DESIGN §14).
 */
export type MailWords = {
  language: Language;
  /** Any catalogue key, for the names of the site's buttons exactly as the cabinet shows them. */
  t: Translate;
  /** The parts of one kind: `of("trial_started")("heading")`. */
  of: <Group extends string>(
    group: Group,
  ) => (part: MailPart<Group>, values?: Record<string, string>) => string;
  /** Between a fact's label and its value in the plain text and in written-out links. */
  colon: string;
  /** "13 March 2027": a payment's or a refund's day. */
  date: (time: number) => string;
  /**
   * "13 March 2027, 23:30 (Moscow time)": a charge, where the hour decides whether one can
   * still cancel, and the end of access, which comes at a moment, not at the end of a day.
   */
  moment: (time: number) => string;
  /** "13 March": subjects, where the year would only lengthen the line (the charges they name are weeks away at most). */
  day: (time: number) => string;
  money: (money: Money) => string;
  /** "3 дня", "5 дней": the catalogue's `{{count|…}}` picks the form by CLDR's rules. */
  days: (count: number) => string;
  months: (count: number) => string;
  /** "•••• 4242". */
  card: (lastFour: string) => string;
};

/** Intl locale for dates: en-GB for English, so day, month and a 24-hour clock read as in Europe. */
const locales: Record<Language, string> = { ru: "ru", en: "en-GB", zh: "zh-CN", kk: "kk" };

/** DESIGN §14: Moscow for ru, en and zh, Almaty for kk; `mail.common.atZone` names the same clock. */
const timeZones: Record<Language, string> = {
  ru: "Europe/Moscow",
  en: "Europe/Moscow",
  zh: "Europe/Moscow",
  kk: "Asia/Almaty",
};

/**
 * Dates go through the shared helpers, so a runtime whose Intl lacks Kazakh month names still
 * writes "2027 ж. 13 наурыз" and never "2027 M03 13".
 */
export function mailWords(language: Language): MailWords {
  const t = translator(language);
  const locale = locales[language];
  const zone = { timeZone: timeZones[language] };
  return {
    language,
    t,
    of: (group) => (part, values) => t(`mail.${group}.${part}` as TranslationKey, values),
    colon: t("mail.common.colon"),
    date: (time) => formatDate(time, locale, zone),
    moment: (time) => t("mail.common.atZone", { dateTime: formatDateTime(time, locale, zone) }),
    day: (time) => formatDayMonth(time, locale, zone),
    money: ({ amount, currency }) => formatMoney(amount, currency),
    days: (count) => t("mail.common.days", { count }),
    months: (count) => t("mail.common.months", { count }),
    card: (lastFour) => t("mail.common.card", { lastFour }),
  };
}
