import { logger } from "../../platform/logger";

/**
 * Work the bank does after it answered: an SBP autopay charge is answered Pending and its
 * outcome (the ledger's status, then Pay or Fail) comes later, as the payer's bank decides.
 * Each settlement starts once its call was answered (`after`) and `delayMs` more have
 * passed, so the shop reads the answer before the notification, as it would from the real
 * gateway (a function: a delay drawn for each). `settled()` lets a test, or GET /api/dev/sandbox/sbp/settled, wait for all of
 * them without guessing a time.
 */
export function createSettlements(delayMs: number | (() => number) = 0) {
  const running = new Set<Promise<void>>();
  /** While set, the payers' banks decide nothing (see `hold`). */
  let held: Promise<void> | undefined;
  return {
    schedule(after: Promise<unknown>, work: () => Promise<void>): void {
      const done: Promise<void> = after
        .then(() => held)
        .then(() => Bun.sleep(typeof delayMs === "number" ? delayMs : delayMs()))
        .then(work)
        .catch((error: unknown) => {
          // A settlement that failed leaves its charge Pending in the ledger, where a look-up
          // finds it; nothing is thrown at a caller that has long had its answer.
          logger.error("the sandbox bank could not settle an SBP charge", {
            error: error instanceof Error ? error.message : String(error),
          });
        })
        .finally(() => running.delete(done));
      running.add(done);
    },

    /**
     * Holds every settlement not yet made until the returned function is called: a bank
     * that takes its time, so a test sees the shop while a charge or a refund is still
     * undecided there (a look-up then answers Pending). `settled()` waits for the release.
     */
    hold(): () => void {
      const gate = Promise.withResolvers<void>();
      held = gate.promise;
      return () => {
        if (held === gate.promise) held = undefined;
        gate.resolve();
      };
    },

    /** Resolves once every settlement scheduled so far, and any they scheduled, is done. */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.all([...running]);
    },

    /** How many settlements are still to come. */
    get pendingCount(): number {
      return running.size;
    },
  };
}

export type Settlements = ReturnType<typeof createSettlements>;
