import type { PaymentRow } from "../../db/queries/payments";
import { renewalLeases } from "../../db/queries/renewal-leases";
import type { AppContext } from "../context";
import { settleNotSent } from "../modules/payments/notifications/settlement";
import type { ChargeOutcome } from "../modules/payments/providers/provider";
import { providerOf } from "../modules/payments/providers/provider-of";
import { settleCharge } from "../modules/payments/renewals/saved-card";
import { logger } from "../platform/logger";
import { ChargeWindow } from "./charge-window";
import type { RenewalLease } from "./renewal-lease";

const claimBatch = 500;

/**
 * Applies what the provider knows of a left-over attempt; nothing found means it never
 * reached the provider. One still pending there stays pending: its notification settles it.
 */
async function settleFound(
  context: Pick<AppContext, "database" | "clock">,
  payment: PaymentRow,
  found: ChargeOutcome | null,
): Promise<void> {
  const now = context.clock.now();
  if (!found) await settleNotSent(context.database, payment, now);
  else await settleCharge(context.database, payment, found, now);
}

/** Asks the provider about one left-over attempt and records the answer, if it has one. */
async function lookUpLeftover(
  context: Pick<AppContext, "database" | "clock" | "payments" | "metrics">,
  payment: PaymentRow,
): Promise<"settled" | "pending" | "failed"> {
  try {
    const found = await providerOf(context.payments, payment.provider).find(payment.invoice_id);
    // Still pending at the provider (an SBP charge not yet decided): its notification, or a
    // later look-up, settles it.
    if (found?.status === "pending") return "pending";
    // The provider's answer is in hand: only database work runs in the transaction.
    await context.database.transaction(() => settleFound(context, payment, found));
    context.metrics.renewals.inc({ result: "recovered" });
    return "settled";
  } catch (error) {
    // Stays pending under this lease; a later pass looks it up again once the lease is gone.
    logger.warn("look-up of a left-over renewal failed", {
      invoiceId: payment.invoice_id,
      error: String(error),
    });
    return "failed";
  }
}

/**
 * Settles the attempts of passes that are provably gone (their lease is dead) by asking
 * the gateway what happened to each invoice, never by charging again. They are first
 * claimed under this pass's lease in one transaction, so two passes never settle the
 * same attempt, and live passes' attempts are never touched. Returns how many it settled.
 */
export async function settleLeftovers(
  context: Pick<AppContext, "database" | "clock" | "config" | "payments" | "metrics">,
  lease: RenewalLease,
): Promise<number> {
  const { database } = context;
  let settled = 0;
  for (;;) {
    if (!(await lease.keep())) return settled;
    const claimed = await database.transaction(async () => {
      const now = lease.now();
      const leftovers = await renewalLeases.leftovers(database, now, lease.liveProcessId, claimBatch);
      for (const payment of leftovers) await renewalLeases.claim(database, payment.id, lease.owner);
      await renewalLeases.dropDead(database, now, lease.liveProcessId);
      return leftovers;
    });
    lease.markSwept();
    // Looked up as many at a time as the pass charges (RENEWAL_CONCURRENCY): after a crash
    // with hundreds in flight, one look-up at a time would take minutes against a real bank.
    const window = new ChargeWindow(context.config.renewalConcurrency);
    const lookUps = new Set<Promise<void>>();
    for (const payment of claimed) {
      const ticket = await window.take();
      if (!(await lease.keep())) {
        window.give(ticket, "unused");
        break;
      }
      const lookUp = lookUpLeftover(context, payment).then((outcome) => {
        window.give(ticket, outcome === "failed" ? "silent" : "answered");
        if (outcome === "settled") settled++;
      });
      lookUps.add(lookUp);
      void lookUp.finally(() => lookUps.delete(lookUp));
    }
    await Promise.all(lookUps);
    if (claimed.length < claimBatch) return settled;
  }
}
