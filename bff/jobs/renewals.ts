import { subscriptions } from "../../db/queries/subscriptions";
import type { AppContext } from "../context";
import { expireLapsed } from "../modules/subscriptions/ending";
import { queueRenewalNotices } from "../modules/subscriptions/renewal-notices";
import { type Clock, systemClock } from "../platform/clock";
import { deliverDueMail } from "./mail-worker";
import { chargeClaimed } from "./renewal-charging";
import { claimDue } from "./renewal-claim";
import { takeRenewalLease } from "./renewal-lease";
import { settleLeftovers } from "./renewal-recovery";

export type RenewalCounts = {
  recovered: number;
  charged: number;
  completed: number;
  declined: number;
  /** Charges the bank accepted without deciding them (SBP autopay): settled by notification. */
  pending: number;
  expired: number;
  free: number;
  /** Pre-charge notices queued (DESIGN §13(a)). */
  noticed: number;
};

export type RenewalOptions = {
  /** Real time for the lease (never the billing test clock); tests pass one they can move. */
  leaseClock?: Clock;
  /** Attempts committed per transaction; tests make it small so that passes interleave. */
  batchSize?: number;
  /**
   * How long the batch under way may go on charging after the server is told to stop
   * (the server exits within 15 s, DESIGN §16); tests make it 0.
   */
  stopGraceMs?: number;
  /** Gateway calls in flight at once; RENEWAL_CONCURRENCY unless a test sets it. */
  concurrency?: number;
};

const defaultStopGraceMs = 9_000;

/** What a renewal pass reads: it charges, settles, mails notices and counts. */
export type RenewalContext = Pick<
  AppContext,
  "database" | "clock" | "config" | "payments" | "mail" | "metrics" | "stopping"
>;

/**
 * One renewal pass: settle what dead passes left, then charge every due subscription with
 * its saved card. Each attempt is committed before the gateway call, with InvoiceId =
 * (subscription, period, attempt), under this pass's lease (see renewal-lease.ts), so any
 * number of passes may run at once, in one process or several, and none charges twice.
 */
export async function runRenewals(
  context: RenewalContext,
  options: RenewalOptions = {},
): Promise<RenewalCounts> {
  const { database, clock } = context;
  const batchSize = options.batchSize ?? context.config.renewalBatchSize;
  const runStartedAt = clock.now();
  const counts: RenewalCounts = {
    recovered: 0,
    charged: 0,
    completed: 0,
    declined: 0,
    pending: 0,
    expired: 0,
    free: 0,
    noticed: 0,
  };
  const lease = await takeRenewalLease(database, options.leaseClock ?? systemClock);
  try {
    counts.recovered = await settleLeftovers(context, lease);
    // Notices that could not go out before (a mail server that was down) go out first, so
    // the charges below see when they did.
    await deliverDueMail(context);
    // A shutdown lets the batch under way finish (its attempts are committed and sent) and
    // starts no other: what is still due waits for the next pass, here or elsewhere.
    while (!context.stopping.aborted && (await lease.keep())) {
      const { toCharge, dueCount, free } = await claimDue(context, lease.owner, batchSize);
      counts.free += free;
      context.metrics.renewals.inc({ result: "free" }, free);
      // The next batch is claimed once this one is recorded, so its prices see what this
      // one changed (an invitee's renewal counts toward its inviter), as the notices did.
      await chargeClaimed(context, lease, toCharge, counts, {
        concurrency: options.concurrency ?? context.config.renewalConcurrency,
        stopGraceMs: options.stopGraceMs ?? defaultStopGraceMs,
      });
      if (dueCount < batchSize) break;
    }
  } finally {
    await lease.release();
  }
  if (context.stopping.aborted) return counts;
  await expireLapsed(database, clock.now());
  // Notices for the charges of the next days, priced from the accounts as this pass left them,
  // and whatever mail is due sent now rather than on the mail worker's next tick (claims
  // keep the two from sending a message twice).
  counts.noticed = await queueRenewalNotices(context, clock.now());
  await deliverDueMail(context);
  counts.expired = await subscriptions.expiredSince(database, runStartedAt);
  return counts;
}
