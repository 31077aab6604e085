import type { AccessSync } from "./access-sync.ts";
import type { Logger } from "./log.ts";
import { type ProductApi, ProductError } from "./product-api.ts";

const longPollSeconds = 15;
const maxBackoffMs = 30_000;
/** An empty answer that did not wait (a product without long polls) must not turn into a busy loop. */
const minPollMs = 1_000;
/**
 * How often the whole list is asked for (since 0). Deltas never bring back an entry the
 * agent expired by its own clock while the product still allows it (a node clock ahead,
 * a long outage); a full answer does, and it is diffed, so the core sees only the changes.
 */
const fullResyncEveryMs = 15 * 60 * 1000;

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
  now?: () => number;
}): Promise<void> {
  const { product, sync, log, signal } = options;
  const now = options.now ?? Date.now;
  let backoffMs = 1_000;
  let lastFullAt = now();
  /** When the fetches began to fail: the recovery is logged with how long the outage lasted. */
  let failingSince: number | undefined;
  while (!signal.aborted) {
    const askedAt = Date.now();
    try {
      // A clock stepped back counts as due, not as 15 more minutes to wait.
      const isFullDue = now() - lastFullAt >= fullResyncEveryMs || now() < lastFullAt;
      const since = isFullDue ? 0 : sync.allowList.version;
      const answer = await product.allowList(since, longPollSeconds, signal);
      backoffMs = 1_000;
      // The list was emptied while the question waited (the product refused the node): a
      // delta from before that is no delta of what the agent holds now.
      if (!answer.full && sync.allowList.version !== since) continue;
      if (failingSince !== undefined) {
        log("info", "the product answers again", {
          failedFor: `${Math.round((Date.now() - failingSince) / 1000)} s`,
        });
        failingSince = undefined;
      }
      if (answer.full || isFullDue) lastFullAt = now();
      if (answer.skipped)
        log("warn", "allow-list entries without a valid id were skipped", { count: answer.skipped });
      if (await sync.applyAnswer(answer)) {
        const fields = {
          version: answer.version,
          full: answer.full,
          changed: answer.entries.length + answer.removed.length,
          credentials: sync.users.accepted,
        };
        // Only what the core took is "applied": a core that is down takes nothing.
        if (sync.users.isInStep) log("info", "allow-list applied", fields);
        else log("warn", "allow-list received; the core has not taken all of it yet (retrying)", fields);
        options.onApplied();
      } else if (Date.now() - askedAt < minPollMs) await pause(minPollMs - (Date.now() - askedAt));
    } catch (error) {
      if (signal.aborted) return;
      failingSince ??= Date.now();
      const isRefusal = error instanceof ProductError && [401, 403, 409].includes(error.status ?? 0);
      // A refusal's effect on access is the refusal watch's to say (refusal.ts).
      log("warn", isRefusal ? "allow-list fetch refused" : "allow-list fetch failed; access stays as it is", {
        cause: (error as Error).message,
        retryInMs: backoffMs,
      });
      await pause(backoffMs);
      backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
    }
  }
}
