import { AppError } from "../../../platform/errors";

export type IntakeRates = {
  /** Items (samples and events) a node may send per second, on average. */
  itemsPerSecond: number;
  /** Items a node may send at once after a quiet spell: a backlog kept while the product was away. */
  burstItems: number;
  /** What a batch costs besides its items, so a stream of empty batches runs dry too. */
  batchCost: number;
};

/**
 * Sized for the largest node DESIGN §8 plans for: 100,000 active credentials, each with a
 * traffic sample every 10 s, sent in batches of about 1,000 items (10 batches a second:
 * 10,000 items and 1,000 for the batches), with connection events beside them; twice that
 * fits. A flood from one key (several senders, or an agent in a loop) gets no more.
 */
export const nodeIntakeRates: IntakeRates = { itemsPerSecond: 22_000, burstItems: 220_000, batchCost: 100 };

export type IntakeLimit = {
  /**
   * Before a batch is read: 0 when the node may send it, else how many milliseconds until it
   * may (its allowance is spent). Nothing is taken yet.
   */
  waitMs(nodeId: number, wallNow: number): number;
  /** After a batch was read: its cost is taken, even past zero (the next batch then waits longer). */
  charge(nodeId: number, items: number, wallNow: number): void;
  /** The 429 for a node that must wait `waitMs`; worded without a plural form, as it may be made often. */
  refusal(waitMs: number): AppError;
};

type Bucket = { balance: number; at: number };

/**
 * A token bucket per node, in this process. A batch is let in while the node's balance is
 * above zero and then charged its whole cost, which may leave a debt: no batch is refused
 * half-read, and a flood is held to the rate (at most one batch per sender beyond it). Each
 * instance keeps its own buckets: what it protects is its own work and the database writes
 * it makes.
 */
export function createIntakeLimit(rates: IntakeRates = nodeIntakeRates): IntakeLimit {
  const buckets = new Map<number, Bucket>();
  const refilled = (nodeId: number, wallNow: number): Bucket => {
    const bucket = buckets.get(nodeId) ?? { balance: rates.burstItems, at: wallNow };
    const elapsed = Math.max(0, wallNow - bucket.at) / 1000;
    bucket.balance = Math.min(rates.burstItems, bucket.balance + elapsed * rates.itemsPerSecond);
    bucket.at = wallNow;
    buckets.set(nodeId, bucket);
    return bucket;
  };
  return {
    waitMs(nodeId, wallNow) {
      const { balance } = refilled(nodeId, wallNow);
      return balance > 0 ? 0 : Math.ceil(((1 - balance) / rates.itemsPerSecond) * 1000);
    },
    charge(nodeId, items, wallNow) {
      refilled(nodeId, wallNow).balance -= rates.batchCost + items;
    },
    refusal(waitMs) {
      const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
      return new AppError(
        "node_busy",
        { rate: rates.itemsPerSecond, seconds: retryAfterSeconds },
        { retryAfterSeconds },
      );
    },
  };
}

/**
 * How long a refused batch is held before its 429 goes out: a sender that does not wait
 * (a broken agent in a loop, several senders with one key) then costs the server a few
 * refusals a second instead of thousands, each of which would be a turn of the event loop
 * that customers' calls wait behind. An agent that waits for Retry-After loses nothing.
 */
export const refusalPauseMs = 1_000;
