import type { PaymentRow } from "../../db/queries/payments";
import type { AppContext } from "../context";
import { settleNotSent } from "../modules/payments/notifications/settlement";
import type { ChargeOutcome } from "../modules/payments/providers/provider";
import { ProviderBusyError } from "../modules/payments/providers/provider";
import { providerOf } from "../modules/payments/providers/provider-of";
import { receiptOf } from "../modules/payments/receipts/receipt";
import { chargeSavedMethod, settleChargeAnswers } from "../modules/payments/renewals/saved-card";
import { logger } from "../platform/logger";
import { type ChargeTicket, ChargeWindow } from "./charge-window";
import type { Attempt } from "./renewal-claim";
import type { RenewalLease } from "./renewal-lease";
import { settleLeftovers } from "./renewal-recovery";

export type ChargingContext = Pick<
  AppContext,
  "database" | "clock" | "config" | "payments" | "metrics" | "stopping"
>;

/** What a batch's charging adds to the pass's counts. */
export type ChargingCounts = {
  recovered: number;
  charged: number;
  completed: number;
  declined: number;
  /** Accepted, outcome to come by notification (an SBP autopay charge): neither paid nor declined yet. */
  pending: number;
};

export type ChargingSettings = {
  /** At most this many gateway calls at once (RENEWAL_CONCURRENCY). */
  concurrency: number;
  /** How long sending may go on once the server is told to stop. */
  stopGraceMs: number;
};

/** A call the bank turned away (429) is sent again at most this many times in a pass. */
const busyTries = 5;

type Answered = { payment: PaymentRow; answer: ChargeOutcome };

/**
 * Records answers in batches while other calls are still in flight: one transaction per
 * batch of answers, which keeps the database's work beside the bank's latency instead of
 * after it. Batches are recorded one after another, in the order they filled.
 */
function answerRecorder(context: ChargingContext, counts: ChargingCounts, batchSize: number) {
  let waiting: Answered[] = [];
  let recording: Promise<void> = Promise.resolve();
  let failure: unknown;
  const record = async (batch: Answered[]) => {
    try {
      const completed = await settleChargeAnswers(context.database, batch, context.clock.now());
      // An undecided charge is no decline: its Pay or Fail (or a look-up) decides it later.
      const pending = batch.filter(({ answer }) => answer.status === "pending").length;
      const declined = batch.length - completed - pending;
      // Tallied after the commit: PostgreSQL may run the transaction's body again.
      counts.completed += completed;
      counts.pending += pending;
      counts.declined += declined;
      context.metrics.renewals.inc({ result: "completed" }, completed);
      context.metrics.renewals.inc({ result: "pending" }, pending);
      context.metrics.renewals.inc({ result: "declined" }, declined);
    } catch (error) {
      // The attempts stay pending under the lease and are looked up once it is gone.
      failure ??= error;
      logger.error("renewal answers could not be recorded", { count: batch.length, error: String(error) });
    }
  };
  const flush = () => {
    const batch = waiting;
    waiting = [];
    recording = recording.then(() => record(batch));
  };
  return {
    add(answered: Answered) {
      waiting.push(answered);
      if (waiting.length >= batchSize) flush();
    },
    /** Records what is left and waits for every batch; throws the first failure. */
    async finish() {
      if (waiting.length > 0) flush();
      await recording;
      if (failure !== undefined) throw failure;
    },
  };
}

/**
 * The server was told to stop and the batch's time is up: what was not sent is settled as
 * never sent (no money moved), so it is due again at once for the next pass, here after a
 * restart or on another instance, instead of waiting for this lease to run out.
 */
async function settleUnsent(context: ChargingContext, unsent: readonly Attempt[]) {
  if (unsent.length === 0) return;
  const { database, clock } = context;
  await database.transaction(async () => {
    for (const { payment } of unsent) await settleNotSent(database, payment, clock.now());
  });
  logger.info("renewal pass stopped; unsent attempts left for the next pass", { unsent: unsent.length });
}

/**
 * Charges a batch of claimed attempts with up to `concurrency` calls in flight (a window
 * that narrows while the bank struggles, charge-window.ts). Every call is made under the
 * lease, checked just before it is sent, as when calls went one at a time; sending stops
 * once the lease is lost (what was not sent stays pending and is found unsent at the bank
 * later) or once the server has been stopping for `stopGraceMs` (what was not sent is
 * settled as never sent). Returns once every call has ended and its answer is recorded.
 */
export async function chargeClaimed(
  context: ChargingContext,
  lease: RenewalLease,
  attempts: readonly Attempt[],
  counts: ChargingCounts,
  settings: ChargingSettings,
): Promise<void> {
  const window = new ChargeWindow(settings.concurrency);
  const recorder = answerRecorder(context, counts, Math.max(16, settings.concurrency));
  let stopSeenAt: number | undefined;
  const isGraceOver = () => {
    if (!context.stopping.aborted) return false;
    stopSeenAt ??= performance.now();
    return performance.now() - stopSeenAt >= settings.stopGraceMs;
  };
  const unsent: Attempt[] = [];
  let unanswered = 0;

  let isLeaseLost = false;

  /**
   * Sends one attempt, and again after a 429. Just before each call, as when calls went one
   * at a time: no call once the stop's grace is over (the attempt is settled as never
   * sent), none once the lease is lost (it stays pending, found unsent at the bank later).
   */
  const send = async (
    { payment, subscription, receipt: claimedReceipt }: Attempt,
    firstTicket: ChargeTicket,
  ) => {
    let ticket = firstTicket;
    let receipt: Awaited<ReturnType<typeof receiptOf>>;
    try {
      // The claim built it from the batch's e-mails (renewal-claim.ts): no read per charge.
      receipt = claimedReceipt ?? (await receiptOf(context, payment));
    } catch (error) {
      // Not sent: pending under the lease, found unsent at the bank once the lease is gone.
      window.give(ticket, "unused");
      unanswered++;
      logger.error("renewal receipt could not be built", {
        invoiceId: payment.invoice_id,
        error: String(error),
      });
      return;
    }
    for (let tries = 1; ; tries++) {
      if (isGraceOver()) {
        window.give(ticket, "unused");
        unsent.push({ payment, subscription });
        return;
      }
      if (!(await lease.keep())) {
        window.give(ticket, "unused");
        isLeaseLost = true;
        return;
      }
      if (tries === 1) counts.charged++;
      try {
        // Charged where the saved method is held (DESIGN §6): the attempt names it.
        const answer = await chargeSavedMethod(
          providerOf(context.payments, payment.provider),
          payment,
          subscription.card_token ?? "",
          receipt,
        );
        window.give(ticket, "answered");
        recorder.add({ payment, answer });
        return;
      } catch (error) {
        const isBusy = error instanceof ProviderBusyError;
        window.give(ticket, isBusy ? "busy" : "silent", isBusy ? error.retryAfterMs : undefined);
        if (isBusy && tries < busyTries) {
          // Turned away before the bank did anything: the same call may go again, later.
          ticket = await window.take();
          continue;
        }
        // Unknown outcome (or still turned away): the attempt stays pending and is looked
        // up at the bank once this lease is gone, never sent again blindly.
        unanswered++;
        logger.warn("renewal charge had no answer", { invoiceId: payment.invoice_id, error: String(error) });
        return;
      }
    }
  };

  const inFlight = new Set<Promise<void>>();
  for (const [index, attempt] of attempts.entries()) {
    // A working pass settles dead passes' attempts in between its own calls.
    if (lease.isSweepDue()) counts.recovered += await settleLeftovers(context, lease);
    const ticket = await window.take();
    if (isGraceOver()) {
      window.give(ticket, "unused");
      unsent.push(...attempts.slice(index));
      break;
    }
    if (isLeaseLost) {
      window.give(ticket, "unused");
      break;
    }
    const call = send(attempt, ticket).finally(() => inFlight.delete(call));
    inFlight.add(call);
  }
  await Promise.all(inFlight);
  await settleUnsent(context, unsent);
  context.metrics.renewals.inc({ result: "unanswered" }, unanswered);
  await recorder.finish();
}
