import type { Database } from "../../../db/database";
import { type MailRow, mailOutbox } from "../../../db/queries/mail-outbox";
import { users } from "../../../db/queries/users";
import type { MailData, MailKind } from "./kinds";

export type MailEvent<K extends MailKind> = {
  userId: number;
  kind: K;
  data: MailData[K];
  /**
   * Names the event the message tells of, so the same event never queues two messages
   * (a redelivered notification, a repeated pass): e.g. `payment_succeeded:{invoiceId}`.
   */
  eventKey: string;
  /** When it may go out, if not at once (a held-back notice, renewal-notices.ts). */
  sendAt?: number;
};

/**
 * Queues a message to a customer in the caller's transaction (DESIGN §14): it is sent
 * if and only if the event it tells of is committed. Sending happens later, in the mail
 * worker, so a mail server that is down never blocks or undoes a money change.
 * The customer's language and address are taken now, as they are at the time of the event.
 */
export async function enqueueMail<K extends MailKind>(
  database: Database,
  event: MailEvent<K>,
  now: number,
): Promise<MailRow | undefined> {
  const user = await users.byId(database, event.userId);
  if (!user) return undefined;
  return mailOutbox.insert(
    database,
    {
      userId: user.id,
      kind: event.kind,
      language: user.language,
      recipient: user.email,
      data: JSON.stringify(event.data),
      eventKey: `${event.kind}:${event.eventKey}`,
      messageId: `${crypto.randomUUID()}@kannt.mail`,
      ...(event.sendAt === undefined ? {} : { sendAt: event.sendAt }),
    },
    now,
  );
}

/**
 * Queues messages as enqueueMail does each (in the caller's transaction, in the language
 * and to the address the customer has now, an event already queued left as it is), in one
 * statement and without reading anything back: for callers that need no row.
 */
export async function enqueueMails(
  database: Database,
  events: readonly MailEvent<MailKind>[],
  now: number,
): Promise<void> {
  await mailOutbox.insertForUsers(
    database,
    events.map((event) => ({
      user_id: event.userId,
      kind: event.kind,
      data: JSON.stringify(event.data),
      event_key: `${event.kind}:${event.eventKey}`,
      message_id: `${crypto.randomUUID()}@kannt.mail`,
    })),
    now,
  );
}
