import { formatMoney } from "../../../../src/lib/money";
import type { Money } from "../kinds";
import type { MailTexts } from "./types";

/** How one language writes the facts of a mail: dates on the customer's clock (DESIGN §14) and money. */
export type MailFormat = {
  /** "13 March 2027": the end of access, a payment's day. */
  date: (time: number) => string;
  /** "13 March 2027 at 23:30 (Moscow time)": a charge, where the hour decides whether one can still cancel. */
  moment: (time: number) => string;
  /** "13 March": subjects, where the year would only lengthen the line (the charges they name are weeks away at most). */
  day: (time: number) => string;
  money: (money: Money) => string;
};

export function mailFormat(texts: MailTexts): MailFormat {
  const { locale, timeZone } = texts;
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone });
  const moment = new Intl.DateTimeFormat(locale, {
    dateStyle: "long",
    timeStyle: "short",
    hourCycle: "h23",
    timeZone,
  });
  const day = new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", timeZone });
  return {
    date: (time) => date.format(time),
    moment: (time) => texts.atZone(moment.format(time)),
    day: (time) => day.format(time),
    money: ({ amount, currency }) => formatMoney(amount, currency),
  };
}
