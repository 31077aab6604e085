import type { Database } from "bun:sqlite";
import type { Language } from "../../src/lib/i18n/languages";
import { statement } from "../statements";

export type MailStatus = "pending" | "sent" | "failed";

export type MailRow = {
  id: number;
  user_id: number | null;
  kind: string;
  language: Language;
  recipient: string;
  /** JSON of the kind's facts (bff/modules/mail/kinds.ts). */
  data: string;
  event_key: string;
  /** The Message-ID header's value without the angle brackets. */
  message_id: string;
  status: MailStatus;
  attempts: number;
  next_attempt_at: number;
  claimed_until: number | null;
  last_error: string | null;
  sent_at: number | null;
  created_at: number;
};

export type NewMail = {
  userId: number | null;
  kind: string;
  language: Language;
  recipient: string;
  data: string;
  eventKey: string;
  messageId: string;
};

export const mailOutbox = {
  /** Queues a message; an event already queued (same key) is left as it is. Returns the row. */
  insert(db: Database, mail: NewMail, now: number): MailRow {
    statement(
      db,
      `INSERT INTO mail_outbox (user_id, kind, language, recipient, data, event_key, message_id,
         next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_key) DO NOTHING`,
    ).run(
      mail.userId,
      mail.kind,
      mail.language,
      mail.recipient,
      mail.data,
      mail.eventKey,
      mail.messageId,
      now,
      now,
    );
    return mailOutbox.byEventKey(db, mail.eventKey) as MailRow;
  },

  byEventKey: (db: Database, eventKey: string) =>
    statement<MailRow, [string]>(db, "SELECT * FROM mail_outbox WHERE event_key = ?").get(eventKey) ??
    undefined,
};
