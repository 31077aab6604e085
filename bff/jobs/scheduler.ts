import type { AppContext } from "../platform/context";
import { logger } from "../platform/logger";
import { runRenewals } from "./renewals";

/** Runs a renewal pass every `intervalMs` inside the server process; passes never overlap. */
export function startRenewalScheduler(context: AppContext, intervalMs: number): () => void {
  let isRunning = false;
  const tick = async () => {
    if (isRunning) return;
    isRunning = true;
    try {
      const counts = await runRenewals(context);
      if (counts.charged + counts.free + counts.recovered > 0) logger.info("renewal pass", counts);
    } catch (error) {
      logger.error("renewal pass failed", {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    } finally {
      isRunning = false;
    }
  };
  const timer = setInterval(tick, intervalMs);
  void tick();
  return () => clearInterval(timer);
}
