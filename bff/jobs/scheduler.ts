import type { AppContext } from "../context";
import { logger } from "../platform/logger";
import { runRenewals } from "./renewals";
import { runRetention } from "./retention";

/**
 * Runs a renewal pass every `intervalMs` inside the server process. Its own passes never
 * pile up; that it may overlap a manual run or another instance's pass is safe because
 * every pass works under a lease (renewal-lease.ts). Stopping waits for the pass under way.
 */
export function startRenewalScheduler(context: AppContext, intervalMs: number): () => Promise<void> {
  let running: Promise<void> | undefined;
  const pass = async () => {
    try {
      const counts = await runRenewals(context);
      if (counts.charged + counts.free + counts.recovered > 0) logger.info("renewal pass", counts);
      const kept = await runRetention(context);
      if (Object.values(kept).some((count) => count > 0)) logger.info("retention", kept);
    } catch (error) {
      logger.error("renewal pass failed", {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
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
