import type { AppContext } from "../../../context";
import { logger } from "../../../platform/logger";
import { randomToken } from "../../../platform/random";
import type { RefundOutcome } from "../providers/provider";
import { staleClaimMs } from "./refund-plan";

/** At most this many per call: a backlog is worked off over the following passes. */
const batchSize = 50;

export type RefundContext = Pick<AppContext, "database" | "clock" | "config" | "payments">;

export type Refunded = Extract<RefundOutcome, { isRefunded: true }>;

/**
 * Money the product sends back by itself (a refused trial, a second payment of one order):
 * what is due, how one is claimed, sent and recorded. The runner does the rest the same way
 * for each.
 */
export type ClaimedRefunds<Item> = {
  /** How the log lines name one ("refused trial"). */
  what: string;
  /** What a log line says of one, to find it again. */
  logFields: (item: Item) => Record<string, unknown>;
  /** Not yet refunded and claimed by nobody alive (a claim older than `staleBefore` is dead). */
  due: (staleBefore: number, limit: number) => Promise<Item[]>;
  /** Answers 1 when this caller took it. */
  claim: (item: Item, claim: string, now: number, staleBefore: number) => Promise<number>;
  /** Asks the provider that took the money to send it back. */
  send: (item: Item) => Promise<RefundOutcome>;
  /** The provider refused: free for a later pass. Inside the runner's transaction. */
  release: (item: Item, claim: string) => Promise<void>;
  /** The provider took it: recorded, and the customer told. Inside the runner's transaction. */
  record: (item: Item, refunded: Refunded, now: number) => Promise<void>;
};

/**
 * Sends back every item due, claimed before the provider is asked, so that two callers
 * (this instance's Pay, another's renewal pass) never send one twice. Called right after
 * the event that made one due and by every renewal pass, so one that did not go out (a
 * crash, the provider down) goes out later. Answers how many went back.
 */
export async function runClaimedRefunds<Item>(
  { database, clock }: RefundContext,
  refunds: ClaimedRefunds<Item>,
): Promise<number> {
  const claim = randomToken(16);
  const claimed = await database.transaction(async () => {
    const now = clock.now();
    const taken: Item[] = [];
    for (const item of await refunds.due(now - staleClaimMs, batchSize))
      if ((await refunds.claim(item, claim, now, now - staleClaimMs)) === 1) taken.push(item);
    return taken;
  });
  let refunded = 0;
  for (const item of claimed) {
    let answer: RefundOutcome;
    try {
      answer = await refunds.send(item);
    } catch (error) {
      // The outcome is unknown: the claim stays until it goes stale, then a later pass asks again.
      logger.error(`refund of a ${refunds.what} failed`, {
        ...refunds.logFields(item),
        error: String(error),
      });
      continue;
    }
    if (!answer.isRefunded)
      logger.warn(`the provider refused to refund a ${refunds.what}; tried again later`, {
        ...refunds.logFields(item),
        message: answer.reason,
      });
    await database.transaction(async () => {
      if (answer.isRefunded) await refunds.record(item, answer, clock.now());
      else await refunds.release(item, claim);
    });
    if (answer.isRefunded) refunded++;
  }
  return refunded;
}

/** After the event that made one due: a failure here is logged and left to the next renewal pass. */
export async function runClaimedRefundsNow<Item>(
  context: RefundContext,
  refunds: ClaimedRefunds<Item>,
): Promise<void> {
  try {
    await runClaimedRefunds(context, refunds);
  } catch (error) {
    logger.error(`refunding each ${refunds.what} due failed; the next renewal pass tries again`, {
      error: String(error),
    });
  }
}
