import type { AccessSync } from "./access-sync";
import type { Logger } from "./log";
import type { ProductApi } from "./product-api";

const longPollSeconds = 15;
const maxBackoffMs = 30_000;
/** An empty answer that did not wait (a product without long polls) must not turn into a busy loop. */
const minPollMs = 1_000;

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Pulls the allow-list as it changes (a long poll from the version the agent holds, so a
 * change costs a delta) until `signal` aborts. Errors are logged and retried with back-off;
 * they never touch access: what the core holds stays, and only expiry removes anyone.
 */
export async function pollAllowList(options: {
  product: ProductApi;
  sync: AccessSync;
  log: Logger;
  signal: AbortSignal;
  onApplied: () => void;
}): Promise<void> {
  const { product, sync, log, signal } = options;
  let backoffMs = 1_000;
  while (!signal.aborted) {
    const askedAt = Date.now();
    try {
      const answer = await product.allowList(sync.allowList.version, longPollSeconds, signal);
      backoffMs = 1_000;
      if (answer.skipped)
        log("warn", "allow-list entries without a valid id were skipped", { count: answer.skipped });
      if (await sync.applyAnswer(answer)) {
        log("info", "allow-list applied", {
          version: answer.version,
          full: answer.full,
          changed: answer.entries.length + answer.removed.length,
          credentials: sync.users.held.size,
        });
        options.onApplied();
      } else if (Date.now() - askedAt < minPollMs) await pause(minPollMs - (Date.now() - askedAt));
    } catch (error) {
      if (signal.aborted) return;
      log("warn", "allow-list fetch failed; access stays as it is", {
        cause: (error as Error).message,
        retryInMs: backoffMs,
      });
      await pause(backoffMs);
      backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
    }
  }
}
