import type { Database } from "../../../../db/database";
import { type CardOnFile, type PaymentRow, webhookEvents } from "../../../../db/queries/payments";
import { type PaidRenewal, settleDecline, settleRenewalsPaid } from "../notifications/settlement";

/** A Pay or Fail of a renewal attempt, checked against its order, to be applied. */
export type RenewalOutcome = {
  kind: "pay" | "fail";
  payment: PaymentRow;
  transactionId: string;
  /** What a Pay names of the card. */
  card: CardOnFile;
  /** Why a Fail failed. */
  reasonCode: number | null;
  reason: string | null;
  now: number;
};

type Waiting = { outcome: RenewalOutcome; resolve: () => void; reject: (error: unknown) => void };

/** The most notifications one transaction applies. */
const batchLimit = 200;

/**
 * Applies outcomes in the caller's transaction, in the order they came, each once per
 * notification (its event key recorded with it, as applyNotification does one by one):
 * the Pays between two Fails together (settleRenewalsPaid), each Fail with its dunning.
 */
async function applyInOrder(database: Database, outcomes: readonly RenewalOutcome[]) {
  const keyOf = (outcome: RenewalOutcome) => `${outcome.kind}:${outcome.transactionId}`;
  const fresh = await webhookEvents.recordMany(
    database,
    outcomes.map((outcome) => ({
      kind: outcome.kind,
      transaction_id: outcome.transactionId,
      invoice_id: outcome.payment.invoice_id,
    })),
    Math.max(...outcomes.map((outcome) => outcome.now)),
  );
  let paid: PaidRenewal[] = [];
  let paidAt = 0;
  for (const outcome of outcomes) {
    // Deleted once seen: the same notification twice in one batch is applied once.
    if (!fresh.delete(keyOf(outcome))) continue;
    if (outcome.kind === "pay") {
      paid.push({ payment: outcome.payment, transactionId: outcome.transactionId, card: outcome.card });
      paidAt = Math.max(paidAt, outcome.now);
      continue;
    }
    await settleRenewalsPaid(database, paid, paidAt);
    paid = [];
    await settleDecline(
      database,
      outcome.payment,
      outcome.transactionId,
      outcome.reasonCode,
      outcome.reason,
      outcome.now,
    );
  }
  await settleRenewalsPaid(database, paid, paidAt);
}

/**
 * The bank's Pay and Fail notifications of renewal attempts, applied many per transaction.
 * A renewal pass sends many charges at once, and their notifications arrive together: one
 * transaction each would be a commit each, and on PostgreSQL concurrent SERIALIZABLE
 * transactions touching neighbouring index pages abort one another and run again. Here a
 * notification is applied one turn of the event loop after it came when none is being
 * applied, with whatever came in that turn; those that arrive meanwhile wait and are
 * applied together next, so a batch forms only under load and a lone notification waits
 * for no more than that turn. Each caller's promise settles when its notification is
 * committed (it is then answered 0) or has failed (the bank delivers it again). Should a
 * batch fail for something other than a conflict (run again inside the transaction), each
 * of its notifications is tried alone, so one bad notification holds back no other.
 */
class NotificationBatches {
  private waiting: Waiting[] = [];
  private isApplying = false;

  constructor(private readonly database: Database) {}

  apply(outcome: RenewalOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ outcome, resolve, reject });
      if (this.isApplying) return;
      this.isApplying = true;
      // One turn of the event loop first, so the notifications already read from other
      // connections join this batch. On SQLite a transaction runs without yielding to the
      // loop, so without this turn every notification was a batch, and a commit, of its own.
      setImmediate(() => void this.applyWaiting());
    });
  }

  private async applyWaiting() {
    try {
      while (this.waiting.length > 0) await this.applyBatch(this.waiting.splice(0, batchLimit));
    } finally {
      this.isApplying = false;
    }
  }

  private async applyBatch(batch: Waiting[]) {
    const { database } = this;
    try {
      await database.transaction(() =>
        applyInOrder(
          database,
          batch.map((waiting) => waiting.outcome),
        ),
      );
      for (const waiting of batch) waiting.resolve();
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
    }
    for (const waiting of batch) {
      try {
        await database.transaction(() => applyInOrder(database, [waiting.outcome]));
        waiting.resolve();
      } catch (error) {
        waiting.reject(error);
      }
    }
  }
}

const batchesOf = new WeakMap<Database, NotificationBatches>();

/** Applies a renewal attempt's Pay or Fail with the others arriving at the same time; settles once committed. */
export function applyRenewalOutcome(database: Database, outcome: RenewalOutcome): Promise<void> {
  let batches = batchesOf.get(database);
  if (!batches) {
    batches = new NotificationBatches(database);
    batchesOf.set(database, batches);
  }
  return batches.apply(outcome);
}
