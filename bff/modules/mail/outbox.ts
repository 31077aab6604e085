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
    },
    now,
  );
}
