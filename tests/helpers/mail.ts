import { enqueueMail } from "../../bff/modules/mail/outbox";
import type { AppContext } from "../../bff/platform/context";
import { type MailRow, mailOutbox } from "../../db/queries/mail-outbox";
import { users } from "../../db/queries/users";
import type { Language } from "../../src/lib/i18n/languages";

let customers = 0;

/** A customer row of its own, made directly, so no product flow queues mail of its own for it. */
export function makeMailCustomer(context: AppContext, email: string, language: Language = "en"): number {
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
export function queueMail(context: AppContext, userId: number, eventKey: string): MailRow {
  const { database, clock } = context;
  const row = database.transaction(() =>
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
  )();
  if (!row) throw new Error(`no customer ${userId}`);
  return row;
}

/** The row as it is now. */
export function mailRow(context: AppContext, row: MailRow): MailRow {
  return mailOutbox.byEventKey(context.database, row.event_key) as MailRow;
}
