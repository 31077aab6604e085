import type { AppContext } from "../../bff/context";
import { enqueueMail } from "../../bff/modules/mail/outbox";
import type { Language } from "../../core/languages";
import { type MailRow, mailOutbox } from "../../db/queries/mail-outbox";
import { users } from "../../db/queries/users";

let customers = 0;

/** A customer row of its own, made directly, so no product flow queues mail of its own for it. */
export function makeMailCustomer(
  context: AppContext,
  email: string,
  language: Language = "en",
): Promise<number> {
  customers++;
  return users.insert(
    context.database,
    {
      providerId: "google.com",
      uid: `mail-test-${customers}-${email}`,
      email,
      photoUrl: null,
      language,
      currency: language === "kk" ? "KZT" : "RUB",
    },
    context.clock.now(),
  );
}

/** Queues a `subscription_canceled` message as an event would, in its own transaction. */
export async function queueMail(context: AppContext, userId: number, eventKey: string): Promise<MailRow> {
  const { database, clock } = context;
  const row = await database.transaction(async () =>
    enqueueMail(
      database,
      {
        userId,
        kind: "subscription_canceled",
        data: { accessUntil: clock.now() + 10 * 24 * 60 * 60 * 1000 },
        eventKey,
      },
      clock.now(),
    ),
  );
  if (!row) throw new Error(`no customer ${userId}`);
  return row;
}

/** The row as it is now. */
export async function mailRow(context: AppContext, row: MailRow): Promise<MailRow> {
  return (await mailOutbox.byEventKey(context.database, row.event_key)) as MailRow;
}

/** Queues one message per key, one after another: their ids and times follow the keys' order. */
export async function queueMails(
  context: AppContext,
  userId: number,
  eventKeys: string[],
): Promise<MailRow[]> {
  const rows: MailRow[] = [];
  for (const eventKey of eventKeys) rows.push(await queueMail(context, userId, eventKey));
  return rows;
}

// An independent model of how mails write dates: what the customer should read.

/** The clock a customer reads a mail's dates on, by the mail's language. */
export const zoneOf = (language: Language) => (language === "kk" ? "Asia/Almaty" : "Europe/Moscow");

/** The locale a mail's dates are written in; English the European way ("13 March 2027"). */
const localeOf: Record<Language, string> = { ru: "ru", en: "en-GB", zh: "zh-CN", kk: "kk" };

/** How each language names the clock a charge's moment is on. */
export const zoneWords: Record<Language, string> = {
  ru: "по московскому времени",
  en: "(Moscow time)",
  zh: "（莫斯科时间）",
  kk: "(Алматы уақытымен)",
};

/** "13 марта 2027 г.", "13 March 2027", "2027年3月13日", "2027 ж. 13 наурыз": on the customer's clock unless another is named. */
export const dateIn = (language: Language, time: number, timeZone = zoneOf(language)) =>
  new Intl.DateTimeFormat(localeOf[language], {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone,
  }).format(time);

/** "23:30": on the customer's clock unless another is named. */
export const clockIn = (language: Language, time: number, timeZone = zoneOf(language)) =>
  new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone }).format(
    time,
  );
