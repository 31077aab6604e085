import { t } from "elysia";
import { isoTime } from "../../../core/date-time";
import type { Language } from "../../../core/languages";
import type { MailRow } from "../../../db/queries/mail-outbox";
import type { Config } from "../../platform/config";
import type { MailData, MailKind } from "./kinds";
import { factsOn } from "./links";
import { renderMail } from "./render";
import { mailDocument } from "./templates";

/** The links every message carries, on PUBLIC_URL (DESIGN §14). */
export const mailLinks = (config: Pick<Config, "publicUrl">) => ({
  cabinetUrl: `${config.publicUrl}/profile`,
});

/** The facts a row was queued with, its links whole on this app's public origin. */
const factsOf = (config: Pick<Config, "publicUrl">, row: MailRow) =>
  factsOn(config.publicUrl, row.kind as MailKind, JSON.parse(row.data) as MailData[MailKind]);

/** A message as its reader sees it, rendered from its facts like the worker renders it to send. */
export function renderRow(config: Pick<Config, "publicUrl">, row: MailRow) {
  return renderMail(row.kind as MailKind, row.language, factsOf(config, row), mailLinks(config));
}

/**
 * A message's subject worded in `language` from the facts it was sent with: as sent in its
 * own language, or for a reader of another (its dates in that reader's words).
 */
export function subjectOf(config: Pick<Config, "publicUrl">, row: MailRow, language: Language): string {
  return mailDocument(row.kind as MailKind, language, factsOf(config, row), mailLinks(config)).subject;
}

export const mailStatus = t.Union([t.Literal("pending"), t.Literal("sent"), t.Literal("failed")]);

/** One message of the demo outbox (GET /api/dev/mail). */
export const outboxMessage = t.Object({
  to: t.String(),
  subject: t.String(),
  text: t.String(),
  html: t.String(),
  kind: t.String(),
  language: t.String(),
  createdAt: t.String({ description: "ISO 8601, when the event queued it (billing clock)" }),
  messageId: t.String({ description: "the Message-ID header's value, without angle brackets" }),
  sentAt: t.Nullable(t.String({ description: "ISO 8601, when the mail server took it (billing clock)" })),
  status: mailStatus,
});

export async function outboxMessageOf(config: Pick<Config, "publicUrl">, row: MailRow) {
  const content = await renderRow(config, row);
  return {
    to: row.recipient,
    subject: content.subject,
    text: content.text,
    html: content.html,
    kind: row.kind,
    language: row.language,
    createdAt: isoTime(row.created_at),
    messageId: row.message_id,
    sentAt: isoTime(row.sent_at),
    status: row.status,
  };
}

/** One message in the operator's view of a customer: what was sent and how delivery went. */
export const deliveryRecord = t.Object({
  id: t.Number(),
  kind: t.String(),
  language: t.String(),
  to: t.String(),
  subject: t.String({ description: "as sent, in `language`" }),
  subjectForReader: t.String({
    description:
      "the same subject worded in the caller's language (the language cookie, then Accept-Language), its dates in that language's words",
  }),
  status: mailStatus,
  attempts: t.Number(),
  lastError: t.Nullable(t.String()),
  createdAt: t.String(),
  sentAt: t.Nullable(t.String()),
  nextAttemptAt: t.Nullable(t.String({ description: "while pending: when it is tried next" })),
  messageId: t.String(),
});

/** `readerLanguage`: the operator's, in which the panel words the subject (the mail's stays as sent). */
export function deliveryRecordOf(config: Pick<Config, "publicUrl">, row: MailRow, readerLanguage: Language) {
  return {
    id: row.id,
    kind: row.kind,
    language: row.language,
    to: row.recipient,
    subject: subjectOf(config, row, row.language),
    subjectForReader: subjectOf(config, row, readerLanguage),
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: isoTime(row.created_at),
    sentAt: isoTime(row.sent_at),
    nextAttemptAt: row.status === "pending" ? isoTime(row.next_attempt_at) : null,
    messageId: row.message_id,
  };
}
