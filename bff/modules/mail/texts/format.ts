import { formatDate, formatDateTime, formatDayMonth } from "../../../../core/date-time";
import { formatMoney } from "../../../../core/money";
import type { Money } from "../kinds";
import type { MailTexts } from "./types";

/** How one language writes the facts of a mail: dates on the customer's clock (DESIGN §14) and money. */
export type MailFormat = {
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
};

/**
 * Through the shared date helpers, so a runtime whose Intl lacks Kazakh month names still
 * writes "2027 ж. 13 наурыз" and never "2027 M03 13".
 */
export function mailFormat(texts: MailTexts): MailFormat {
  const { locale, timeZone } = texts;
  return {
    date: (time) => formatDate(time, locale, { timeZone }),
    moment: (time) => texts.atZone(formatDateTime(time, locale, { timeZone })),
    day: (time) => formatDayMonth(time, locale, { timeZone }),
    money: ({ amount, currency }) => formatMoney(amount, currency),
  };
}
