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
