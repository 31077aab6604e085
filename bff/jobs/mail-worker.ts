import { type ClaimedMail, mailDelivery } from "../../db/queries/mail-outbox";
import type { AppContext } from "../context";
import { MailDeliveryError } from "../modules/mail/transport";
import { renderRow } from "../modules/mail/view";
import { queueRenewalNotices } from "../modules/subscriptions/renewal-notices";
import { logger } from "../platform/logger";

/**
 * Sends the outbox (DESIGN §14). Each message is claimed before the mail server is
 * contacted, so two workers (of one instance or of several sharing the database), or two
 * passes of one, never send the same row; a claim lasts longer than a send can (the
 * transport's timeouts), and a crashed worker's claim simply runs out. Rendering happens
 * here, at send time, from the row's facts.
 */
export const claimMs = 2 * 60 * 1000;
/** "The worker retries at most 60 s apart while the mail server is down." */
export const maxRetryDelayMs = 60_000;

/** 1 s, 2 s, 4 s … after the first, second, third failure, never more than 60 s. */
export function retryDelayMs(attempts: number): number {
  return Math.min(maxRetryDelayMs, 1000 * 2 ** Math.max(0, Math.min(attempts - 1, 16)));
}

export type MailPassCounts = { sent: number; failed: number; retried: number };

type Outcome = "sent" | "failed" | "retried" | "server-down";

type MailPassContext = Pick<AppContext, "database" | "clock" | "config" | "mail" | "metrics">;

async function deliverOne(
  context: Pick<AppContext, "database" | "clock" | "config" | "mail">,
  mail: ClaimedMail,
): Promise<Outcome> {
  const { database, clock, config } = context;
  let failure: MailDeliveryError | undefined;
  try {
    const content = await renderRow(config, mail);
    await context.mail.send({
      from: config.mailFrom,
      to: mail.recipient,
      subject: content.subject,
      text: content.text,
      html: content.html,
      messageId: mail.message_id,
      kind: mail.kind,
    });
  } catch (error) {
    // Anything but the transport's verdict (a template that throws, bad stored facts) is
    // ours to fix, so the message waits for the fix instead of being given up.
    failure =
      error instanceof MailDeliveryError
        ? error
        : new MailDeliveryError(
            `could not prepare the message: ${String(error)}`.slice(0, 500),
            "message",
            false,
          );
  }
  if (!failure) {
    // The billing clock: a renewal checks its notice went out 24 h before, in that clock.
    await mailDelivery.markSent(database, mail, clock.now());
    return "sent";
  }
  if (failure.isPermanent) {
    await mailDelivery.markFailed(database, mail, failure.message);
    logger.warn("mail refused for good", { id: mail.id, kind: mail.kind, error: failure.message });
    return "failed";
  }
  const nextAttemptAt = clock.now() + retryDelayMs(mail.attempts + 1);
  await mailDelivery.markRetry(database, mail, nextAttemptAt, failure.message);
  if (failure.scope === "message") return "retried";
  await mailDelivery.postponeDue(database, clock.now(), Date.now(), nextAttemptAt, failure.message);
  return "server-down";
}

/**
 * Sends every due message once, now, and says how it went. A message the server
 * defers or cannot take is counted as retried and waits its backoff; when the server
 * itself is unreachable the pass stops there and the other due messages wait as long.
 * Never throws for a mail failure. `signal` stops it between messages (shutdown).
 */
export async function deliverDueMail(
  context: MailPassContext,
  options: { signal?: AbortSignal } = {},
): Promise<MailPassCounts> {
  const counts: MailPassCounts = { sent: 0, failed: 0, retried: 0 };
  // The embedded outbox sends nothing: it keeps the row itself and renders it when someone
  // looks (/api/dev/mail, /dev-mail). Every due message is delivered at once, in one
  // statement, rather than claimed and recorded one by one (two commits each, as many as
  // a renewal pass has renewals).
  if (context.mail.kind === "outbox") {
    if (options.signal?.aborted) return counts;
    counts.sent = await mailDelivery.markDueSent(context.database, context.clock.now(), Date.now());
    context.metrics.mails.inc({ result: "sent" }, counts.sent);
    return counts;
  }
  let isServerDown = false;
  const lane = async () => {
    while (!isServerDown && !options.signal?.aborted) {
      const realNow = Date.now();
      const mail = await mailDelivery.claimNext(
        context.database,
        context.clock.now(),
        realNow,
        realNow + claimMs,
      );
      if (!mail) return;
      const outcome = await deliverOne(context, mail);
      context.metrics.mails.inc({ result: outcome === "server-down" ? "retried" : outcome });
      if (outcome === "server-down") {
        isServerDown = true;
        counts.retried++;
      } else counts[outcome]++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, context.mail.concurrency) }, lane));
  return counts;
}

/**
 * Runs a pass every `intervalMs` (its passes never overlap). `stop` lets the message in
 * flight finish and be recorded, and starts no other.
 */
export function startMailWorker(context: MailPassContext, intervalMs = 1000): { stop(): Promise<void> } {
  const controller = new AbortController();
  let running: Promise<void> | undefined;
  const pass = async () => {
    try {
      // A charge due within days of the event that scheduled it (a short trial, a resume)
      // gets its pre-charge notice now rather than at the next renewal pass, so the notice's
      // 24 hours start as early as they can (DESIGN §13(a)).
      await queueRenewalNotices(context, context.clock.now());
      const counts = await deliverDueMail(context, { signal: controller.signal });
      if (counts.sent + counts.failed > 0) logger.info("mail pass", counts);
      if (counts.retried > 0) logger.warn("mail not delivered yet; will retry", counts);
    } catch (error) {
      logger.error("mail pass failed", {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  };
  const tick = () => {
    if (running || controller.signal.aborted) return;
    running = pass().finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(tick, intervalMs);
  tick();
  return {
    async stop() {
      controller.abort();
      clearInterval(timer);
      await running;
    },
  };
}
