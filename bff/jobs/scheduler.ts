import type { AppContext } from "../context";
import { refundDuplicatePayments } from "../modules/payments/refunds/duplicate-refunds";
import { refundRefusedTrials } from "../modules/payments/refunds/refused-trial-refunds";
import { logger } from "../platform/logger";
import { runRenewals } from "./renewals";
import { runRetention } from "./retention";

/**
 * Runs a renewal pass, then privacy retention, every `intervalMs` inside the server
 * process. Its own passes never pile up; that it may overlap a manual run or another
 * instance's pass is safe because every pass works under a lease (renewal-lease.ts), and
 * retention's batches are safe to repeat. Stopping waits for the pass under way.
 */
export function startRenewalScheduler(
  context: Pick<
    AppContext,
    "database" | "clock" | "config" | "payments" | "mail" | "metrics" | "stopping" | "leaseClock"
  >,
  intervalMs: number,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  // Each job fails on its own: a renewal pass that throws must not keep retention from
  // running (nor the other way round), and the log says which one failed.
  const pass = async () => {
    try {
      const counts = await runRenewals(context, { leaseClock: context.leaseClock });
      if (counts.charged + counts.free + counts.recovered > 0) logger.info("renewal pass", counts);
    } catch (error) {
      logger.error("renewal pass failed", { error: errorText(error) });
    }
    try {
      // Paid trials refused their trial whose refund did not go out at once (a crash, the gateway down).
      const refunded = await refundRefusedTrials(context);
      if (refunded > 0) logger.info("refused trials refunded", { refunded });
      // Orders paid twice (an SBP QR paid again) whose second payment did not go back at once.
      const duplicates = await refundDuplicatePayments(context);
      if (duplicates > 0) logger.info("duplicate payments refunded", { refunded: duplicates });
    } catch (error) {
      logger.error("refunding refused trials failed", { error: errorText(error) });
    }
    try {
      const kept = await runRetention(context);
      if (Object.values(kept).some((count) => count > 0)) logger.info("retention", kept);
    } catch (error) {
      logger.error("retention pass failed", { error: errorText(error) });
    }
  };
  const tick = () => {
    if (running !== undefined) return;
    context.metrics.schedulerPassStarted(Date.now(), intervalMs);
    running = pass().finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(tick, intervalMs);
  tick();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

const errorText = (error: unknown) =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);
