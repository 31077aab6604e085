import nodemailer, { type NodemailerError } from "nodemailer";
import { isSingleMailbox } from "../../../core/email-address";
import type { Config } from "../../platform/config";

/** One message as it leaves us: rendered, addressed, with its stable Message-ID. */
export type OutgoingMail = {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Without angle brackets; the same on every attempt, so receivers can drop a repeat. */
  messageId: string;
  kind: string;
};

/**
 * How messages leave (DESIGN §14): SMTP when SMTP_URL is set; otherwise, in demo mode,
 * the embedded outbox, where delivering is only recording the message as sent (it stays
 * in mail_outbox, which /api/dev/mail and /dev-mail show). Tests inject their own.
 */
export type MailTransport = {
  kind: "smtp" | "outbox";
  /** How many messages the worker may have in flight at once. */
  concurrency: number;
  /** Resolves once the server accepted the message; throws a MailDeliveryError when it did not. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
};

/**
 * Why a message was not delivered. `scope` "server": the mail server could not be
 * reached or would not take mail from us at all (so every message would fail now);
 * "message": it refused this message. Only a message refused for good is permanent.
 */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly scope: "server" | "message",
    readonly isPermanent: boolean,
  ) {
    super(message);
    this.name = "MailDeliveryError";
  }
}

/**
 * Sorts nodemailer's errors. A reply to RCPT TO or DATA is about this message: 5xx
 * (but 503, RFC 5321's "bad sequence") refuses it for good, 4xx defers it. Everything
 * else — no connection, a timeout, 421 "service not available", a refused login or
 * sender — is the server's state or our settings, and is tried again later.
 */
export function classifySmtpError(error: unknown): MailDeliveryError {
  const failure = (error ?? {}) as NodemailerError;
  const message = (failure.message || String(error)).slice(0, 500);
  const isAboutMessage =
    (failure.command === "RCPT TO" || failure.command === "DATA") &&
    failure.responseCode !== undefined &&
    failure.responseCode !== 421;
  // An address nodemailer itself cannot send to is as final as a 550 for it.
  const isBadAddress = failure.code === "EENVELOPE" && failure.command === "API";
  if (isBadAddress) return new MailDeliveryError(message, "message", true);
  if (isAboutMessage) return new MailDeliveryError(message, "message", failure.permanent === true);
  return new MailDeliveryError(message, "server", false);
}

/** Bounded waits, so a stuck server costs a worker seconds, not nodemailer's default minutes. */
const timeouts = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
  dnsTimeout: 10_000,
};

export function createSmtpTransport(smtpUrl: string): MailTransport {
  const maxConnections = 3;
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections,
    maxMessages: 100,
    ...timeouts,
  });
  return {
    kind: "smtp",
    concurrency: maxConnections,
    async send(mail) {
      // A string would be parsed as an address list ("a@x, b@y", "Name <a@x>"): the
      // recipient goes as one address object, and only a bare single address at all.
      if (!isSingleMailbox(mail.to))
        throw new MailDeliveryError("The recipient is not one plain e-mail address.", "message", true);
      try {
        await transporter.sendMail({
          from: mail.from,
          to: { name: "", address: mail.to },
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: `<${mail.messageId}>`,
          headers: { "X-Message-Kind": mail.kind },
        });
      } catch (error) {
        throw classifySmtpError(error);
      }
    },
    close: () => transporter.close(),
  };
}

/** The demo's embedded outbox: the row itself is the delivered message. */
export function createOutboxTransport(): MailTransport {
  return { kind: "outbox", concurrency: 1, send: async () => {}, close: () => {} };
}

/** SMTP when configured; else the embedded outbox (production never gets here without SMTP_URL). */
export function createMailTransport(config: Pick<Config, "smtpUrl">): MailTransport {
  return config.smtpUrl ? createSmtpTransport(config.smtpUrl) : createOutboxTransport();
}
