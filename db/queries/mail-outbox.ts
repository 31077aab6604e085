import type { Language } from "../../core/languages";
import type { Database } from "../database";
import { statement } from "../database";
import { jsonRows, largerOf, skipLocked } from "../dialect";

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
  /** When it may go out (app clock); now unless it is held back (renewal-notices.ts). */
  sendAt?: number;
};

export const mailOutbox = {
  /** Queues a message; an event already queued (same key) is left as it is. Returns the row. */
  async insert(db: Database, mail: NewMail, now: number): Promise<MailRow> {
    await statement(
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
      mail.sendAt ?? now,
      now,
    );
    return (await mailOutbox.byEventKey(db, mail.eventKey)) as MailRow;
  },

  /**
   * Restates a message no worker has touched yet (never tried, never claimed), to go out no
   * sooner than `sendAt`; false when one has (it may be on its way with the old facts).
   */
  restateUntouched: async (db: Database, id: number, data: string, sendAt: number) =>
    (
      await statement(
        db,
        `UPDATE mail_outbox SET data = ?, next_attempt_at = ${largerOf(db)}(next_attempt_at, ?)
         WHERE id = ? AND status = 'pending' AND attempts = 0 AND claimed_until IS NULL`,
      ).run(data, sendAt, id)
    ).changes === 1,

  /**
   * Queues messages to customers in one statement, each in its customer's language and to
   * their address as they are now; one whose customer is gone is left out, and an event
   * already queued (same key) is left as it is.
   */
  insertForUsers: (db: Database, mails: readonly NewUserMail[], now: number) =>
    mails.length === 0
      ? Promise.resolve({ changes: 0 })
      : statement<never, [number, number, string]>(
          db,
          `INSERT INTO mail_outbox (user_id, kind, language, recipient, data, event_key, message_id,
             next_attempt_at, created_at)
           SELECT u.id, m.kind, u.language, u.email, m.data, m.event_key, m.message_id, ?, ?
           FROM ${jsonRows(db, "m", [
             ["user_id", "BIGINT"],
             ["kind", "TEXT"],
             ["data", "TEXT"],
             ["event_key", "TEXT"],
             ["message_id", "TEXT"],
           ])}
           JOIN users u ON u.id = m.user_id WHERE true
           ON CONFLICT (event_key) DO NOTHING`,
        ).run(now, now, JSON.stringify(mails)),

  byEventKey: (db: Database, eventKey: string) =>
    statement<MailRow, [string]>(db, "SELECT * FROM mail_outbox WHERE event_key = ?").get(eventKey),
};

/** A message for a customer, whose language and address are taken from the account (mailOutbox.insertForUsers). */
export type NewUserMail = {
  user_id: number;
  kind: string;
  /** JSON of the kind's facts. */
  data: string;
  event_key: string;
  message_id: string;
};

/** A claimed row: the claim's own expiry is its token, so only its holder records the outcome. */
export type ClaimedMail = MailRow & { claimed_until: number };

/**
 * The delivery side: claims, outcomes and the lists. Times: `now` is the app's clock
 * (the test clock in demo mode), which `next_attempt_at`, `created_at` and `sent_at`
 * are in; claims are in real time (`realNow`), so moving the test clock never frees a
 * claim under a worker that is still talking to the mail server.
 */
export const mailDelivery = {
  /** Claims the next due, unclaimed message until `claimUntil`; undefined when none is due. */
  claimNext(
    db: Database,
    now: number,
    realNow: number,
    claimUntil: number,
  ): Promise<ClaimedMail | undefined> {
    // Several instances claim at once on PostgreSQL: each skips the row another is taking.
    return statement<ClaimedMail, [number, number, number, number, number]>(
      db,
      `UPDATE mail_outbox SET claimed_until = ?
         WHERE id = (SELECT id FROM mail_outbox
                     WHERE status = 'pending' AND next_attempt_at <= ?
                       AND (claimed_until IS NULL OR claimed_until <= ?)
                     ORDER BY next_attempt_at, id LIMIT 1 ${skipLocked(db)})
           AND status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
         RETURNING *`,
    ).get(claimUntil, now, realNow, now, realNow);
  },

  /**
   * Records every due, unclaimed message as delivered, in one statement: the embedded
   * outbox's delivery, which has nothing to send (the row is the message). Returns how many.
   */
  markDueSent: async (db: Database, now: number, realNow: number) =>
    (
      await statement(
        db,
        `UPDATE mail_outbox SET status = 'sent', sent_at = ?, attempts = attempts + 1, last_error = NULL,
           claimed_until = NULL
         WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)`,
      ).run(now, now, realNow)
    ).changes,

  /** Records a delivery; false when the claim was no longer this worker's. */
  async markSent(db: Database, mail: ClaimedMail, sentAt: number): Promise<boolean> {
    return (
      (
        await statement(
          db,
          `UPDATE mail_outbox SET status = 'sent', sent_at = ?, attempts = attempts + 1, last_error = NULL,
           claimed_until = NULL
         WHERE id = ? AND status = 'pending' AND claimed_until = ?`,
        ).run(sentAt, mail.id, mail.claimed_until)
      ).changes === 1
    );
  },

  /** A temporary failure: counted, tried again at `nextAttemptAt`. */
  async markRetry(db: Database, mail: ClaimedMail, nextAttemptAt: number, error: string): Promise<boolean> {
    return (
      (
        await statement(
          db,
          `UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, claimed_until = NULL
         WHERE id = ? AND status = 'pending' AND claimed_until = ?`,
        ).run(nextAttemptAt, error, mail.id, mail.claimed_until)
      ).changes === 1
    );
  },

  /** A permanent refusal: never tried again. */
  async markFailed(db: Database, mail: ClaimedMail, error: string): Promise<boolean> {
    return (
      (
        await statement(
          db,
          `UPDATE mail_outbox SET status = 'failed', attempts = attempts + 1, last_error = ?, claimed_until = NULL
         WHERE id = ? AND status = 'pending' AND claimed_until = ?`,
        ).run(error, mail.id, mail.claimed_until)
      ).changes === 1
    );
  },

  /**
   * The mail server is unreachable: every other due, unclaimed message waits as long as
   * the one that was tried, instead of each knocking on a server that is down. Their
   * attempts are not counted (they were not tried); `last_error` says why they wait.
   */
  async postponeDue(
    db: Database,
    now: number,
    realNow: number,
    until: number,
    error: string,
  ): Promise<number> {
    return (
      await statement(
        db,
        `UPDATE mail_outbox SET next_attempt_at = ?, last_error = ?
       WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)`,
      ).run(until, error, now, realNow)
    ).changes;
  },

  /** The newest messages, to one address in any letter case or to anyone. */
  latest(db: Database, recipient: string | undefined, limit: number): Promise<MailRow[]> {
    return recipient === undefined
      ? statement<MailRow, [number]>(db, "SELECT * FROM mail_outbox ORDER BY id DESC LIMIT ?").all(limit)
      : statement<MailRow, [string, number]>(
          db,
          "SELECT * FROM mail_outbox WHERE lower(recipient) = lower(?) ORDER BY id DESC LIMIT ?",
        ).all(recipient, limit);
  },

  /** One customer's messages, newest first, a page at a time. */
  ofUser(db: Database, userId: number, limit: number, offset: number): Promise<MailRow[]> {
    return statement<MailRow, [number, number, number]>(
      db,
      "SELECT * FROM mail_outbox WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
    ).all(userId, limit, offset);
  },

  async countOfUser(db: Database, userId: number): Promise<number> {
    return (
      (
        await statement<{ count: number }, [number]>(
          db,
          "SELECT COUNT(*) AS count FROM mail_outbox WHERE user_id = ?",
        ).get(userId)
      )?.count ?? 0
    );
  },

  /** Messages waiting to be sent: the outbox's depth. */
  async pendingCount(db: Database): Promise<number> {
    return (
      (
        await statement<{ count: number }, []>(
          db,
          "SELECT COUNT(*) AS count FROM mail_outbox WHERE status = 'pending'",
        ).get()
      )?.count ?? 0
    );
  },
};
